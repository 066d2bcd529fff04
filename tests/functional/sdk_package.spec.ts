import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import react from '@vitejs/plugin-react'
import { build as viteBuild, type Rollup } from 'vite'
import app from '@adonisjs/core/services/app'
import aceKernel from '@adonisjs/core/services/ace'
import { CreateBot } from '#actions/bots/create_bot'
import { findPluginPackages } from '#plugins/registry'
import { forgetPluginRegistry, pluginRegistry } from '#services/plugin_registry'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { OUTSIDE_APP, USES_FORMS, USES_SDK, USES_VIEWER } from '#tests/sdk_package_sources'
import PluginsList from '../../commands/plugins_list.js'
import { appResolve } from '../../vite/app_resolve.js'
import { flowcraftPlugins } from '../../vite/flowcraft_plugins.js'

const exec = promisify(execFile)

/**
 * The SDK as a package (docs/plugins.md, "A plugin package"), the author's path end to end:
 * packages/sdk is packed with `npm pack`, `make:plugin --package` scaffolds a plugin package
 * in a temporary folder outside the app, that folder installs its own dependencies (the packed
 * SDK, TypeScript) and passes its tests with no app, `npm pack` makes its tarball,
 * `npm install <tarball>` installs it (in a stand-in of the app's folder), and the app lists it
 * in plugins:list and in both editors: every command of that section of docs/plugins.md.
 * Slow (two npm installs from the registry): it runs once, on the SQLite pass.
 */
/**
 * Runs the app's production build into `outDir` with PLUGIN_PACKAGES naming `name`, and
 * answers its manifest. The Vite config sets NODE_ENV for a build: the test process's is put
 * back after.
 */
async function buildAppWith(name: string, outDir: string) {
  const saved = { packages: process.env.PLUGIN_PACKAGES, nodeEnv: process.env.NODE_ENV }
  process.env.PLUGIN_PACKAGES = name
  try {
    await viteBuild({
      configFile: app.makePath('vite.config.ts'),
      root: app.makePath(),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    })
  } finally {
    for (const [key, value] of [
      ['PLUGIN_PACKAGES', saved.packages],
      ['NODE_ENV', saved.nodeEnv],
    ] as const) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  return JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >
}

test.group('SDK package', () => {
  test('a package scaffolded against the packed SDK builds, passes its tests and loads in the app', async ({
    assert,
    client,
    cleanup,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-sdk-package-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    const id = `sdk-check-${process.pid}`
    const name = `flowcraft-plugin-${id}`
    const folder = join(root, name)
    const timeout = 600_000
    // A failing tool's report is on its output: show it, not only its exit code.
    const run = async (command: string, args: string[], cwd: string) => {
      try {
        return await exec(command, args, { cwd, timeout, env: { ...process.env, NODE_ENV: '' } })
      } catch (error: any) {
        throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout}${error.stderr}`)
      }
    }
    const npm = (args: string[], cwd: string) => run('npm', args, cwd)
    const ace = (args: string[]) =>
      run(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], app.makePath())
    const lastLine = (text: string) => text.trim().split('\n').at(-1)!.trim()

    // 1. The SDK, packed as it would be published (prepack builds dist/ with its types).
    const packed = await npm(['pack', '--pack-destination', root], app.makePath('packages/sdk'))
    const sdkTarball = join(root, lastLine(packed.stdout))
    const listing = await run('tar', ['tzf', sdkTarball], root)
    const entries = [
      'plugin',
      'runner',
      'ai',
      'data',
      'google',
      'http',
      'n8n',
      'oauth',
      'inputs',
      'slack',
      'slack_users',
      'telegram',
      'knowledge',
      'sessions',
      'workflows',
      'mail',
      'loops',
      'documents',
      'chat',
    ]
    // The shared plugin code the entries export travels with its types.
    const modules = [
      'testing/index',
      'ai/openai_compatible',
      'ai/agent',
      'ai/chat_fields',
      'data/sql',
      'data/sql_runners',
      'data/sql_fields',
    ]
    for (const file of [...entries, ...modules].map((entry) => `dist/${entry}.d.ts`))
      assert.include(listing.stdout, `package/${file}`)
    // Nothing of the app travels with it.
    assert.notMatch(listing.stdout, /package\/(src|tests|app)\//)

    // 2. The plugin package, outside the app.
    await ace([
      'make:plugin',
      id,
      '--serves',
      'bot,workflow',
      '--credentials',
      '--form',
      '--package',
      folder,
      '--sdk',
      sdkTarball,
    ])
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'))
    assert.equal(manifest.devDependencies['@flowcraft/sdk'], `file:${sdkTarball}`)
    // Its form is compiled against React's types and rendered by the app's React.
    assert.equal(manifest.devDependencies['@types/react'], '^19.1.10')
    assert.deepEqual(manifest.peerDependencies, { react: '^19.0.0' })
    const locale = JSON.parse(await readFile(join(folder, 'src/locales/en.json'), 'utf8'))
    assert.equal(locale.credentials.apiKey.label, 'API key')

    // 3. Its own dependencies only, and its tests with no app.
    await npm(['install', '--no-audit', '--no-fund'], folder)
    assert.isFalse(existsSync(join(folder, 'node_modules/@adonisjs')))

    // The helpers' entry points (docs/plugins.md, "The app's SDK modules and the package")
    // type-check from outside: a file using each one builds with the package, and a wrong
    // use is refused (were they untyped, the expected errors would not come and tsc fails).
    await writeFile(join(folder, 'src/uses_sdk.ts'), USES_SDK)
    // The browser parts the app provides (docs/plugins.md, "Browser files of a package"): a
    // chat input and a form type-check against the package's declarations of them.
    await writeFile(join(folder, 'src/viewer.tsx'), USES_VIEWER)
    await writeFile(join(folder, 'src/uses_forms.tsx'), USES_FORMS)
    await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], folder)
    // That file reaches every entry, and the entries are all the package exports: a subpath
    // left out of the build or of "exports" fails the type-check above, and a new one must
    // be added here.
    const sdkManifest = JSON.parse(
      await readFile(join(folder, 'node_modules/@flowcraft/sdk/package.json'), 'utf8')
    )
    assert.sameMembers(
      Object.keys(sdkManifest.exports).filter((key) => key !== './package.json'),
      [...entries, 'testing', 'forms', 'viewer'].map((entry) => `./${entry}`)
    )
    for (const entry of [...entries, 'testing'])
      assert.include(USES_SDK, `from '@flowcraft/sdk/${entry}'`, entry)
    // Outside the app there is nothing to run: the package declares these modules only.
    const browserOnly = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import('@flowcraft/sdk/viewer').catch((e) => console.log(e.code))`,
      ],
      folder
    )
    assert.equal(lastLine(browserOnly.stdout), 'ERR_PACKAGE_PATH_NOT_EXPORTED')
    // Outside the app the helpers say so; a test's stand-in of the app's part answers instead.
    const outside = await run(process.execPath, ['--input-type=module', '-e', OUTSIDE_APP], folder)
    assert.deepEqual(JSON.parse(lastLine(outside.stdout)), {
      listed: [{ id: 'small' }],
      refused: true,
      stores: [{ value: 's1', label: 'Docs' }],
      afterUndo: true,
      table: 'notes',
    })
    const tested = await npm(['test'], folder)
    assert.match(tested.stdout, /# pass 4/)
    assert.match(tested.stdout, /# fail 0/)

    // After a manifest change the author regenerates the locale from the app; it agrees now.
    await ace(['plugins:locales', '--check', join(folder, 'src')])
    const regenerated = await ace(['plugins:locales', join(folder, 'src')])
    assert.include(regenerated.stdout, '1 plugins, 0 written')

    // 4. Its tarball (what `npm publish` sends), installed with `npm install <tarball>`.
    const built = await npm(['pack'], folder)
    const pluginTarball = join(folder, lastLine(built.stdout))
    const published = await npm(['publish', '--dry-run'], folder)
    assert.include(published.stdout, `+ ${name}@0.1.0`)
    // The docs' `npm install <tarball>`, run in a stand-in of the app's folder (a package.json
    // of its own): the app's own dependencies must not change. The app finds it there as a
    // dependency declaring flowcraft.plugin, as it would in its own folder.
    const standIn = join(root, 'app')
    await mkdir(standIn)
    await writeFile(
      join(standIn, 'package.json'),
      JSON.stringify({ name: 'flowcraft-app-stand-in', private: true })
    )
    await npm(['install', '--no-audit', '--no-fund', pluginTarball], standIn)
    const found = await findPluginPackages(standIn)
    assert.deepEqual(found.problems, [])
    assert.deepEqual(
      found.packages.map((p) => `${p.name}@${p.version}`),
      [`${name}@0.1.0`]
    )
    const link = app.makePath('node_modules', name)
    if (await lstat(link).catch(() => null)) await rm(link, { recursive: true, force: true })
    await symlink(join(standIn, 'node_modules', name), link, 'dir')
    const before = app.config.get<string[]>('plugins.packages', [])
    app.config.set('plugins.packages', [...before, name])
    forgetPluginRegistry()
    cleanup(async () => {
      await rm(link, { force: true })
      app.config.set('plugins.packages', before)
      forgetPluginRegistry()
    })

    const registry = await pluginRegistry()
    assert.deepEqual(registry.problems(), [])
    assert.equal(registry.sourceOf(id)?.kind, 'package')
    assert.isFunction(await registry.runnerOf(id))

    // The docs' `node ace plugins:list`, in this process (where the package is listed).
    const list = await aceKernel.create(PluginsList, [])
    list.ui.switchMode('raw')
    try {
      await list.exec()
      const lines = list.ui.logger.getLogs().map((log) => log.message)
      const row = lines.find((line) => line.includes(id))
      assert.include(row ?? lines.join('\n'), `package ${name}@0.1.0`)
    } finally {
      list.ui.switchMode('normal')
    }

    // 5. The app's bundle takes its browser files: the generated modules name the compiled
    // form and viewer, and a build with the app's resolution gives their @flowcraft/sdk/forms
    // and /viewer the app's own parts, and React (or, on the chat page, Preact) the app's copy,
    // though the package lies outside the app with a React of its own beside it (npm installed
    // the peer in the stand-in).
    const { packages: inApp } = await findPluginPackages(app.makePath(), [name])
    const browser = dirname(inApp.find((pkg) => pkg.name === name)!.entry)
    const generated = flowcraftPlugins({ root: app.makePath(), packages: [name] }) as any
    const codeOf = async (module: string) => generated.load(generated.resolveId(module))
    const form = join(browser, 'form.js')
    const viewer = join(browser, 'viewer.js')
    assert.include(
      await codeOf('virtual:flowcraft/plugins'),
      `form: () => import(${JSON.stringify(form)})`
    )
    assert.include(await codeOf('virtual:flowcraft/viewers'), `import(${JSON.stringify(viewer)})`)
    assert.isTrue(existsSync(join(standIn, 'node_modules/react/package.json')))
    // The app's packages as the bundler names them (their real path: node_modules may be a link).
    const appModules = await realpath(app.makePath('node_modules'))
    const bundle = async (bundleOf: 'dashboard' | 'visitor', input: Record<string, string>) => {
      const output = (await viteBuild({
        configFile: false,
        root: app.makePath(),
        logLevel: 'silent',
        resolve: appResolve(app.makePath(), bundleOf),
        plugins: [react()],
        // The app imports a plugin's files lazily and uses their exports: keep an entry's exports
        // here too, or the build would drop the component it is meant to show.
        build: { write: false, rollupOptions: { input, preserveEntrySignatures: 'exports-only' } },
      })) as Rollup.RollupOutput
      const chunks = output.output.filter((part) => part.type === 'chunk')
      for (const chunk of chunks) assert.notInclude(chunk.code, '@flowcraft/sdk', chunk.fileName)
      // Module ids without rollup's marks: `\0` for its helpers, `?commonjs-...` queries.
      const ids = chunks.flatMap((chunk) => chunk.moduleIds)
      return [...new Set(ids.map((module) => module.replace(/^\0/, '').replace(/\?.*$/, '')))]
    }
    const dashboard = await bundle('dashboard', { form, viewer })
    assert.includeMembers(dashboard, [
      app.makePath('resources/features/plugin_form/block_test_form.tsx'),
      app.makePath('resources/features/viewer/inputs/text_field.tsx'),
      join(appModules, 'react/jsx-runtime.js'),
    ])
    const visitor = await bundle('visitor', { viewer })
    assert.include(visitor, app.makePath('resources/features/viewer/inputs/text_field.tsx'))
    assert.include(visitor, join(appModules, 'preact/compat/dist/compat.mjs'))
    assert.notInclude(visitor, join(appModules, 'react/jsx-runtime.js'))
    for (const bundled of [dashboard, visitor]) {
      const reacts = bundled.filter((module) =>
        /\/node_modules\/(react|react-dom|preact)\//.test(module)
      )
      assert.isNotEmpty(reacts)
      assert.deepEqual(
        reacts.filter((module) => !module.startsWith(`${appModules}/`)),
        []
      )
    }

    // The app's own build (vite.config.ts), told of the package by PLUGIN_PACKAGES as a host
    // would be: the dashboard's manifest lists the package's form, the visitor's its viewer.
    const appBuild = await buildAppWith(name, join(root, 'app-build'))
    const manifestKeys = Object.keys(appBuild).map((key) => key.replace(/^(\.\.\/)+/, '/'))
    for (const file of [form, viewer]) {
      const real = await realpath(file)
      assert.isTrue(
        manifestKeys.some((key) => real.endsWith(key) || file.endsWith(key)),
        `${file} in the build's manifest`
      )
    }

    // 6. Both editors list it.
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Package check' })
    const botPage = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    botPage.assertStatus(200)
    const inBots = (botPage.inertiaProps.plugins as any[]).find((p) => p.id === id)
    assert.equal(inBots?.category, 'integration')
    const api = await client
      .get(`/api/v1/plugins?workspaceId=${workspace.id}&surface=workflow`)
      .loginAs(user)
    api.assertStatus(200)
    const inWorkflows = api.body().plugins.find((p: any) => p.id === id)
    assert.equal(inWorkflows?.category, 'action')
  })
    .skip(
      process.env.DB_CONNECTION !== undefined && process.env.DB_CONNECTION !== 'sqlite',
      'the package path does not depend on the database: checked on the SQLite pass'
    )
    .timeout(1_800_000)
})
