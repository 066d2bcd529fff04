import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'

const run = promisify(execFile)

/** What a copy of the project leaves out: installed, generated or run-time files. */
const NOT_COPIED = new Set(['node_modules', 'tmp', 'build', 'storage', '.git'])

/**
 * `node ace make:plugin --serves bot,workflow --credentials` writes a plugin that passes
 * typecheck, lint and its own test with no other edit (docs/plugins.md). It does not
 * depend on the database, so it runs once, on the SQLite pass of the suite. It works in a
 * copy of the project: a plugin folder appearing in plugins/ would reach the registries of the
 * other `npm test` shards and the tools running beside them.
 */
test.group('make:plugin', () => {
  test('a scaffolded plugin for bots and workflows typechecks, lints and passes its test', async ({
    assert,
    cleanup,
  }) => {
    const slug = `scaffold-check-${process.pid}`
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-make-plugin-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    for (const entry of await readdir(app.makePath())) {
      if (NOT_COPIED.has(entry)) continue
      await cp(app.makePath(entry), join(root, entry), {
        recursive: true,
        filter: (source) => !source.startsWith(app.makePath('public/assets')),
      })
    }
    await symlink(realpathSync(app.makePath('node_modules')), join(root, 'node_modules'))
    await mkdir(join(root, 'tmp'))
    const folder = join(root, 'plugins', slug)
    // Generous: on a 2-core machine at load average 10 the project's typecheck takes minutes.
    const timeout = 600_000
    const node = (args: string[], env: Record<string, string> = {}) =>
      run(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        timeout,
      })

    await node(['make:plugin', slug, '--serves', 'bot,workflow', '--credentials', '--form'])
    const files = ['index.ts', 'runner.ts', 'credentials.ts', 'form.tsx', 'runner.spec.ts']
    for (const file of [...files, 'README.md']) assert.isTrue(existsSync(join(folder, file)), file)
    const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
    assert.equal(locale.credentials.apiKey.label, 'API key')

    // A failing tool's report is on its stdout: show it, not only its exit code.
    const tool = async (script: string, args: string[]) => {
      try {
        await run(process.execPath, [join(root, 'node_modules', script), ...args], {
          cwd: root,
          timeout,
        })
      } catch (error: any) {
        assert.fail(
          `${script} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`
        )
      }
    }
    // The project's compiler settings on the scaffold and everything it reaches, with the
    // files that declare the types plugins and their tests rely on (providers through
    // adonisrc.ts, config/ and middleware augmentations, Japa's plugins in tests/bootstrap.ts).
    // The rest of the project is checked by `npm run typecheck`; checking it again here cost
    // about 40% more compiler time for files the scaffold does not touch.
    await writeFile(
      join(root, 'tsconfig.scaffold.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: [
          `plugins/${slug}/**/*`,
          'adonisrc.ts',
          'config/**/*.ts',
          'app/middleware/**/*.ts',
          'tests/bootstrap.ts',
        ],
      })
    )
    await tool('typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.scaffold.json'])
    // The form is browser code: the front end's settings (`#sdk/forms` is the editor's module),
    // with the declarations of the front end's virtual modules and assets.
    await writeFile(
      join(root, 'resources/tsconfig.scaffold.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: ['./**/*.d.ts', `../plugins/${slug}/form.tsx`],
      })
    )
    await tool('typescript/bin/tsc', ['--noEmit', '-p', 'resources/tsconfig.scaffold.json'])
    await tool('eslint/bin/eslint.js', [`plugins/${slug}`])

    // Its own test, in a process with a database of its own.
    const { stdout } = await node(['test', 'unit', `--files=plugins/${slug}/runner.spec.ts`], {
      DB_CONNECTION: 'sqlite',
      SQLITE_PATH: `tmp/${slug}.sqlite3`,
      PORT: String(40_000 + (process.pid % 20_000)),
      // The times of this inner run are not this shard's (tests/file_timings.ts).
      TEST_TIMINGS_FILE: '',
    })
    assert.match(stdout, /4 passed/)
  })
    .skip(
      process.env.DB_CONNECTION !== undefined && process.env.DB_CONNECTION !== 'sqlite',
      'the scaffold does not depend on the database: checked on the SQLite pass'
    )
    .timeout(1_800_000)
})
