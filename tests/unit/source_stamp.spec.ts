import { test } from '@japa/runner'
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error: plain JavaScript (it runs before anything is compiled), with no declarations
import { sourceStamp } from '../../bin/prepare.js'

/** `npm start` rebuilds when build/.source-stamp differs from this stamp (bin/start.js). */
test.group('npm start: when to rebuild', (group) => {
  let root = ''
  const saved = process.env.PLUGIN_PACKAGES
  group.each.setup(async () => {
    root = await mkdtemp(join(tmpdir(), 'flowcraft-stamp-'))
    await mkdir(join(root, 'app'))
    await writeFile(join(root, 'app/a.ts'), 'export {}\n')
    await utimes(join(root, 'app/a.ts'), 1_000, 1_000)
    delete process.env.PLUGIN_PACKAGES
    return async () => {
      await rm(root, { recursive: true, force: true })
      if (saved === undefined) delete process.env.PLUGIN_PACKAGES
      else process.env.PLUGIN_PACKAGES = saved
    }
  })

  test('a newer source gives another stamp', async ({ assert }) => {
    const before = sourceStamp(root)
    await utimes(join(root, 'app/a.ts'), 2_000, 2_000)
    assert.notEqual(sourceStamp(root), before)
  })

  test('another PLUGIN_PACKAGES list gives another stamp: the bundle holds those plugins', ({
    assert,
  }) => {
    const none = sourceStamp(root)
    process.env.PLUGIN_PACKAGES = 'flowcraft-plugin-weather'
    const one = sourceStamp(root)
    process.env.PLUGIN_PACKAGES = 'flowcraft-plugin-weather,flowcraft-plugin-maps'
    const two = sourceStamp(root)
    assert.equal(new Set([none, one, two]).size, 3)
    process.env.PLUGIN_PACKAGES = '  '
    assert.equal(sourceStamp(root), none)
  })
})
