/*
| Test runner entry point (node ace test).
*/
process.env.NODE_ENV = 'test'

import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
      // Before the providers boot: the Vite provider reads TEST_ASSETS (tests/test_assets.ts).
      const { prepareTestAssets, runsBrowserSuite } = await import('../tests/test_assets.js')
      const { onlyPluginTests } = await import('../tests/selected_files.js')
      const suites = app.rcFile.tests.suites.map((suite) => suite.name)
      const argv = process.argv.slice(2)
      prepareTestAssets({
        browserSuite: runsBrowserSuite(argv, suites),
        servesPages: !onlyPluginTests(argv),
      })
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      // One retry for browser tests: a loaded CI machine can miss a timing once; a real
      // failure fails twice.
      suites: app.rcFile.tests.suites.map((suite) =>
        suite.name === 'browser' ? { ...suite, retries: 1 } : suite
      ),
      ...config,
      ...{
        setup: runnerHooks.setup,
        teardown: runnerHooks.teardown.concat([() => app.terminate()]),
      },
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
