import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { pluginRegistry } from '#services/plugin_registry'

const run = promisify(execFile)

/**
 * `node ace make:plugin --serves bot,workflow --credentials` writes a plugin that passes
 * typecheck, lint and its own test with no other edit (docs/plugins.md). It does not
 * depend on the database, so it runs once, on the SQLite pass of the suite.
 */
test.group('make:plugin', () => {
  test('a scaffolded plugin for bots and workflows typechecks, lints and passes its test', async ({
    assert,
    cleanup,
  }) => {
    const slug = `scaffold-check-${process.pid}`
    const root = app.makePath()
    const folder = join(root, 'plugins', slug)
    // The registry of this process is loaded before the folder appears and never sees it.
    await pluginRegistry()
    cleanup(async () => {
      await rm(folder, { recursive: true, force: true })
      await rm(join(root, 'tmp', `${slug}.sqlite3`), { force: true })
    })
    const node = (args: string[], env: Record<string, string> = {}) =>
      run(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        timeout: 240_000,
      })

    await node(['make:plugin', slug, '--serves', 'bot,workflow', '--credentials'])
    for (const file of ['index.ts', 'runner.ts', 'credentials.ts', 'runner.spec.ts', 'README.md'])
      assert.isTrue(existsSync(join(folder, file)), file)
    const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
    assert.equal(locale.credentials.apiKey.label, 'API key')

    // The project's typecheck (server side) covers plugins/ and their tests.
    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit'], {
      cwd: root,
      timeout: 240_000,
    })
    await run(
      process.execPath,
      [join(root, 'node_modules/eslint/bin/eslint.js'), `plugins/${slug}`],
      {
        cwd: root,
        timeout: 240_000,
      }
    )

    // Its own test, in a process with a database of its own.
    const { stdout } = await node(['test', 'unit', `--files=plugins/${slug}/runner.spec.ts`], {
      DB_CONNECTION: 'sqlite',
      SQLITE_PATH: `tmp/${slug}.sqlite3`,
      PORT: String(40_000 + (process.pid % 20_000)),
    })
    assert.match(stdout, /4 passed/)
  })
    .skip(
      process.env.DB_CONNECTION !== undefined && process.env.DB_CONNECTION !== 'sqlite',
      'the scaffold does not depend on the database: checked on the SQLite pass'
    )
    .timeout(600_000)
})
