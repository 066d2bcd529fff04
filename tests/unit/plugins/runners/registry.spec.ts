import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, serverOnlyImportsOf } from '#plugins/registry'
import { localeOf } from '#plugins/derive'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))

const BUBBLES = ['text', 'image', 'video', 'audio', 'embed']
const INPUTS_WITH_RUN = ['choice input', 'picture choice input', 'payment input']
const INPUTS = [
  'text input',
  'number input',
  'email input',
  'url input',
  'date input',
  'phone number input',
  'choice input',
  'picture choice input',
  'rating input',
  'file input',
  'location input',
  'payment input',
]

test.group('Bubble and input runners in the registry', () => {
  test('bubbles export run, inputs export parse (and run when they compute the question)', async ({
    assert,
  }) => {
    const registry = await loadPlugins(ROOT)
    for (const id of BUBBLES) assert.isFunction(await registry.runnerOf(id), id)
    for (const id of INPUTS) {
      assert.isFunction(await registry.parserOf(id), id)
      if (INPUTS_WITH_RUN.includes(id)) assert.isFunction(await registry.runnerOf(id), id)
      else assert.isUndefined(await registry.runnerOf(id), id)
    }
  })

  test('the payment credentials are declared, typed by the plugin id, and translated', async ({
    assert,
  }) => {
    const registry = await loadPlugins(ROOT)
    const plugin = registry.get('payment input')!
    assert.includeMembers(Object.keys(plugin.credentials ?? {}), [
      'livePublicKey',
      'liveSecretKey',
      'testPublicKey',
      'testSecretKey',
    ])
    assert.equal((plugin.options as any).credentialsId.credentialType, plugin.id)
    const folder = registry.folderOf(plugin.id)!
    const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
    assert.deepEqual(locale, JSON.parse(JSON.stringify(localeOf(plugin))))
    assert.deepEqual(serverOnlyImportsOf(await readFile(join(folder, 'index.ts'), 'utf8')), [])
  })
})
