import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import { sessionApiClient } from '@adonisjs/session/plugins/api_client'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import { inertiaApiClient } from '@adonisjs/inertia/plugins/api_client'
import { shieldApiClient } from '@adonisjs/shield/plugins/api_client'
import testUtils from '@adonisjs/core/services/test_utils'
import { browserClient, decoratorsCollection } from '@japa/browser-client'
import { launchRelaunchingBrowser } from './browser_launcher.js'
import { recordFileTimings } from './file_timings.js'
import { onlyPluginTests } from './selected_files.js'

/**
 * Japa plugins. The browser client drives Debian's Chromium (no downloaded browser), launched
 * again if it dies mid-run (tests/browser_launcher.ts).
 */
export const plugins: Config['plugins'] = [
  assert(),
  pluginAdonisJS(app),
  apiClient(),
  sessionApiClient(app),
  authApiClient(app),
  inertiaApiClient(app),
  shieldApiClient(),
  browserClient({
    runInSuites: ['browser'],
    launcher: (options) => launchRelaunchingBrowser(options),
  }),
  recordFileTimings(),
]

/*
 * The editors ask before the page is left with unsaved changes (the leave warning). A
 * person asked answers "Leave" when they meant to go: a test that reloads or goes elsewhere
 * right after an edit does too. Any other dialog is dismissed, as Playwright does when nobody
 * listens. A test may listen as well to see the dialog; whichever answers first wins.
 */
decoratorsCollection.register({
  page(page) {
    page.on('dialog', (dialog) => {
      const answer = dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()
      answer.catch(() => {})
    })
  },
})

/**
 * The test database is migrated from scratch once per run and seeded with the plans, unless
 * the run is only plugins' own tests (`--files plugins/...`): they run plugins through
 * runPluginTest, which reads no database (docs/plugins.md, "Test").
 */
const needsDatabase = !onlyPluginTests(process.argv.slice(2))

export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    async () => {
      if (!needsDatabase) return
      const ace = await app.container.make('ace')
      // A shard of `npm test` migrates a database of its own (bin/test_all.js). Lucid's lock is
      // one fixed key, and MySQL's GET_LOCK is server-wide: shards migrating their own
      // databases at once would refuse each other, so they go without it. Wipe and run are
      // separate because migration:fresh hands --disable-locks to db:wipe, which refuses it.
      const steps: [string, string[]][] =
        process.env.TEST_OWN_DATABASE === '1'
          ? [
              ['db:wipe', ['--force']],
              ['migration:run', ['--force', '--disable-locks']],
            ]
          : [['migration:fresh', ['--force']]]
      for (const [name, args] of steps) {
        const command = await ace.exec(name, args)
        if (command.exitCode) throw command.error ?? new Error(`${name} failed`)
      }
    },
    async () => {
      if (needsDatabase) await testUtils.db().seed()
    },
  ],
  teardown: [],
}

/**
 * Functional and browser suites need the HTTP server.
 */
export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional', 'e2e'].includes(suite.name)) {
    return suite.setup(() => testUtils.httpServer().start())
  }
}
