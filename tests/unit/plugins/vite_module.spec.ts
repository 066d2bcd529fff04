import { test } from '@japa/runner'
import { lstat, rm, symlink } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { flowcraftPlugins } from '../../../vite/flowcraft_plugins.js'

/**
 * vite/flowcraft_plugins.ts: the modules that give the browser every plugin. Folders are
 * globbed (Vite expands the globs); an installed package gets explicit imports of its files.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const NAME = 'flowcraft-plugin-sample-greeting'
const FIXTURE = fileURLToPath(new URL('../../fixtures/plugin_package', import.meta.url))
const LINK = `${ROOT}node_modules/${NAME}`

async function load(packages: string[], id: string) {
  const plugin = flowcraftPlugins({ root: ROOT, packages }) as any
  const resolved = plugin.resolveId(id)
  return { resolved, code: (await plugin.load(resolved)) as string }
}

test.group('Vite: the generated plugin modules', (group) => {
  group.setup(async () => {
    if (await lstat(LINK).catch(() => null)) await rm(LINK, { recursive: true, force: true })
    await symlink(FIXTURE, LINK, 'dir')
    return () => rm(LINK, { force: true })
  })

  test('the editors’ module globs the folders and imports a package’s manifest and icon', async ({
    assert,
  }) => {
    const { resolved, code } = await load([NAME], 'virtual:flowcraft/plugins')
    assert.equal(resolved, '\0virtual:flowcraft/plugins')
    assert.include(code, `import.meta.glob('/plugins/*/index.ts', { eager: true })`)
    assert.include(code, `import.meta.glob('/plugins/*/form.tsx')`)
    assert.include(code, 'import * as manifest0 from')
    assert.include(code, JSON.stringify(`${FIXTURE}/index.js`))
    assert.include(code, JSON.stringify(`${FIXTURE}/icon.svg?url`))
    assert.include(code, `package: ${JSON.stringify(NAME)}`)
  })

  test('without packages, only the folders', async ({ assert }) => {
    const { code } = await load([], 'virtual:flowcraft/plugins')
    assert.notInclude(code, 'manifest0')
    assert.include(code, 'export const plugins = [...folderEntries(')
  })

  test('the chat page’s module globs the viewers only', async ({ assert }) => {
    const { code } = await load([NAME], 'virtual:flowcraft/viewers')
    assert.include(code, `import.meta.glob('/plugins/*/viewer.tsx', { import: 'default' })`)
    assert.notInclude(code, 'index.ts')
    // The fixture has no viewer: nothing of it is imported by the chat page.
    assert.notInclude(code, FIXTURE)
  })

  test('a listed package that is not installed fails the build with the reason', async ({
    assert,
  }) => {
    await assert.rejects(
      () => load(['flowcraft-plugin-missing'], 'virtual:flowcraft/plugins'),
      /package flowcraft-plugin-missing: not installed/
    )
  })
})
