import { test } from '@japa/runner'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findPluginPackages, installedPackageJson } from '#plugins/packages'

/**
 * `npm start` serves the production build from build/, whose package.json is the app's and
 * whose packages are the app's, in the folder above: a plugin package is found there as Node
 * finds a bare import.
 */
test.group('Plugin packages: where they are installed', (group) => {
  let root = ''
  group.each.setup(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'flowcraft-lookup-')))
    const pkg = join(root, 'node_modules/flowcraft-plugin-weather')
    await mkdir(pkg, { recursive: true })
    await writeFile(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: 'flowcraft-plugin-weather',
        version: '1.0.0',
        flowcraft: { plugin: './index.js' },
      })
    )
    await writeFile(join(pkg, 'index.js'), 'export default {}\n')
    await mkdir(join(root, 'build'))
    await writeFile(
      join(root, 'build/package.json'),
      JSON.stringify({ name: 'app', dependencies: { 'flowcraft-plugin-weather': '^1.0.0' } })
    )
    return () => rm(root, { recursive: true, force: true })
  })

  test('the build folder finds the package the app installed, one folder up', async ({
    assert,
  }) => {
    assert.equal(
      installedPackageJson(join(root, 'build'), 'flowcraft-plugin-weather'),
      join(root, 'node_modules/flowcraft-plugin-weather/package.json')
    )
    const found = await findPluginPackages(join(root, 'build'))
    assert.deepEqual(found.problems, [])
    assert.deepEqual(
      found.packages.map((pkg) => [pkg.name, pkg.entry]),
      [['flowcraft-plugin-weather', join(root, 'node_modules/flowcraft-plugin-weather/index.js')]]
    )
  })

  test('a listed package installed nowhere up the tree is reported', async ({ assert }) => {
    assert.isUndefined(installedPackageJson(join(root, 'build'), 'flowcraft-plugin-missing'))
    const found = await findPluginPackages(join(root, 'build'), ['flowcraft-plugin-missing'])
    assert.deepEqual(found.problems, [
      'package flowcraft-plugin-missing: not installed (config/plugins.ts lists it)',
    ])
  })
})
