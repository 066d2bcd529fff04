import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { CreateBot } from '#actions/bots/create_bot'
import { forgetPluginRegistry, pluginRegistry } from '#services/plugin_registry'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

const exec = promisify(execFile)

/**
 * The SDK as a package (docs/plugins.md, "A plugin package"), the author's path end to end:
 * packages/sdk is packed with `npm pack`, `make:plugin --package` scaffolds a plugin package
 * in a temporary folder outside the app, that folder installs its own dependencies (the packed
 * SDK, TypeScript) and passes its tests with no app, `npm pack` makes its tarball, and the
 * app, given that tarball's content as `npm install` leaves it, lists the plugin in both
 * editors. Slow (two npm installs from the registry): it runs once, on the SQLite pass.
 */
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
    for (const file of ['dist/plugin.d.ts', 'dist/runner.js', 'dist/testing/index.d.ts'])
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
      '--package',
      folder,
      '--sdk',
      sdkTarball,
    ])
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'))
    assert.equal(manifest.devDependencies['@flowcraft/sdk'], `file:${sdkTarball}`)
    const locale = JSON.parse(await readFile(join(folder, 'src/locales/en.json'), 'utf8'))
    assert.equal(locale.credentials.apiKey.label, 'API key')

    // 3. Its own dependencies only, and its tests with no app.
    await npm(['install', '--no-audit', '--no-fund'], folder)
    assert.isFalse(existsSync(join(folder, 'node_modules/@adonisjs')))
    const tested = await npm(['test'], folder)
    assert.match(tested.stdout, /# pass 4/)
    assert.match(tested.stdout, /# fail 0/)

    // After a manifest change the author regenerates the locale from the app; it agrees now.
    await ace(['plugins:locales', '--check', join(folder, 'src')])
    const regenerated = await ace(['plugins:locales', join(folder, 'src')])
    assert.include(regenerated.stdout, '1 plugins, 0 written')

    // 4. Its tarball (what `npm publish` sends), unpacked where `npm install <tarball>` would put it in the app.
    const built = await npm(['pack'], folder)
    const pluginTarball = join(folder, lastLine(built.stdout))
    const published = await npm(['publish', '--dry-run'], folder)
    assert.include(published.stdout, `+ ${name}@0.1.0`)
    const unpacked = join(root, 'installed')
    await mkdir(unpacked)
    await run('tar', ['xzf', pluginTarball, '-C', unpacked], root)
    const link = app.makePath('node_modules', name)
    if (await lstat(link).catch(() => null)) await rm(link, { recursive: true, force: true })
    await symlink(join(unpacked, 'package'), link, 'dir')
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

    // 5. Both editors list it.
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
