import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  checkBuild,
  developmentBundlesIn,
  pluginFilesMissingFromBuild,
  pluginProblemsInBuild,
} from '../../bin/check_build.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

async function put(root: string, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
}

/** A manifest as tsc writes it into build/ (plain JavaScript, no import). */
function manifest(fields: Record<string, unknown>) {
  return `export default ${JSON.stringify({ scope: 'user', version: 1, serves: ['bot'], fullName: 'A block', tags: [], ...fields })}\n`
}

test.group('Build check', (group) => {
  let root: string
  group.each.setup(async () => {
    root = await mkdtemp(join(tmpdir(), 'flowcraft-build-check-'))
    return () => rm(root, { recursive: true, force: true })
  })

  test('names each plugin file (not code) that the build did not carry', async ({ assert }) => {
    const source = join(root, 'src')
    const build = join(root, 'src/build')
    await put(source, {
      'plugins/greet/index.ts': '',
      'plugins/greet/runner.ts': '',
      'plugins/greet/form.tsx': '',
      'plugins/greet/icon.svg': '<svg/>',
      'plugins/greet/locales/en.json': '{}',
      'plugins/greet/data/words.csv': 'a,b',
      'plugins/_draft/notes.txt': 'skipped: not a plugin folder',
      'plugins/no-index/readme.txt': 'skipped: no index file',
    })
    await put(build, {
      'plugins/greet/index.js': '',
      'plugins/greet/icon.svg': '<svg/>',
      'plugins/greet/locales/en.json': '{}',
    })
    assert.deepEqual(pluginFilesMissingFromBuild(source, build), [
      'plugins/greet: data/words.csv is not in the build',
    ])
    await put(build, { 'plugins/greet/data/words.csv': 'a,b' })
    assert.deepEqual(pluginFilesMissingFromBuild(source, build), [])
  })

  test('a missing icon the manifest names fails; another manifest problem only warns', async ({
    assert,
  }) => {
    await put(root, {
      // build/ has the app's package.json: its .js files are ES modules.
      'package.json': '{"type":"module"}',
      'plugins/with-icon/index.js': manifest({
        id: 'with-icon',
        name: 'A',
        category: 'logic',
        icon: 'icon.svg',
      }),
      'plugins/bad-category/index.js': manifest({
        id: 'bad-category',
        name: 'B',
        category: 'nope',
      }),
      'plugins/fine/index.js': manifest({
        id: 'fine',
        name: 'C',
        category: 'logic',
        icon: 'icon.svg',
      }),
      'plugins/fine/icon.svg': '<svg/>',
    })
    const result = await pluginProblemsInBuild(root)
    assert.deepEqual(result.missing, ['plugins/with-icon: icon file icon.svg is missing'])
    assert.lengthOf(result.warnings, 1)
    assert.match(result.warnings[0], /^plugins\/bad-category: category "nope"/)
    assert.equal(result.loaded, 1)
  })

  test("finds React's development build among the assets, not its production build", async ({
    assert,
  }) => {
    const assets = join(root, 'public/assets')
    await put(assets, {
      'dev-chunk.js':
        'function x(e){e._debugTask=null;console.error("Each child in a list should have a unique")}',
      'prod-chunk.js': 'throw Error("Minified React error #31; visit https://react.dev/errors/31")',
      'dev-chunk.js.br': '_debugTask',
      'style.css': '._debugTask{}',
    })
    assert.deepEqual(developmentBundlesIn(assets), [
      `dev-chunk.js: React's development build (owner stacks) ("_debugTask")`,
    ])
    assert.deepEqual(developmentBundlesIn(join(root, 'missing')), [])
  })

  test('`node ace build` runs the check once the build is written', async ({ assert }) => {
    // The fixtures above prove what the check finds; this, that the build runs it (the hook
    // throws on a finding, which fails `node ace build`, not a request).
    const { default: rc } = await import('../../adonisrc.js')
    const hooks = await Promise.all((rc.hooks?.onBuildCompleted ?? []).map((load) => load()))
    const { default: checkBuildHook } = await import('../../bin/check_build.js')
    assert.include(
      hooks.map((hook) => hook.default),
      checkBuildHook
    )
  })

  test('the build in build/ passes every check', async ({ assert }) => {
    const { failures, plugins } = await checkBuild(ROOT, join(ROOT, 'build'))
    assert.deepEqual(failures, [])
    assert.isAbove(plugins, 50)
  })
    .skip(!existsSync(join(ROOT, 'build/bin/server.js')), 'no build/: run `node ace build` first')
    .timeout(60_000)
})
