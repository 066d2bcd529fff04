import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, serverOnlyImportsOf, type PluginRegistry } from '#plugins/registry'
import { defaultsOf, formOf, localeOf, validatorFor } from '#plugins/derive'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))
/**
 * The event triggers as the registry loads them (hooks, files, defaults, bounds). Each
 * trigger's own logic is tested beside it (plugins/slack-trigger/slack_trigger.spec.ts...).
 */
const TRIGGERS = ['telegram-trigger', 'slack-trigger', 'gmail-trigger']

test.group('Event trigger plugins', (group) => {
  let registry: PluginRegistry
  group.setup(async () => {
    registry = await loadPlugins(ROOT)
  })

  test('each is a workflow trigger with hooks, credentials, a README and a matching en.json', async ({
    assert,
  }) => {
    for (const id of TRIGGERS) {
      const plugin = registry.get(id)!
      assert.exists(plugin, id)
      assert.equal(plugin.category, 'trigger')
      assert.deepEqual([...plugin.serves], ['workflow'])
      assert.isFunction(await registry.runnerOf(id), id)
      assert.isObject(plugin.credentials, id)
      const folder = registry.folderOf(id)!
      for (const file of ['README.md', 'credentials.ts', 'icon.svg']) {
        assert.isTrue(existsSync(join(folder, file)), `${id} ${file}`)
      }
      const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
      assert.deepEqual(locale, JSON.parse(JSON.stringify(localeOf(plugin))), `${id} en.json`)
      assert.deepEqual(serverOnlyImportsOf(await readFile(join(folder, 'index.ts'), 'utf8')), [])
      await assert.doesNotReject(() =>
        validatorFor(plugin, { mode: 'save' }).validate(defaultsOf(plugin))
      )
      assert.doesNotThrow(() => JSON.stringify(formOf(plugin)))
    }
    assert.isFunction(await registry.exportOf('telegram-trigger', 'onActivate'))
    assert.isFunction(await registry.exportOf('telegram-trigger', 'onDeactivate'))
    assert.isFunction(await registry.exportOf('telegram-trigger', 'handleEvent'))
    assert.isFunction(await registry.exportOf('slack-trigger', 'handleEvent'))
    assert.isFunction(await registry.exportOf('gmail-trigger', 'poll'))
    assert.isUndefined(await registry.exportOf('gmail-trigger', 'handleEvent'))
  })

  test('defaults and bounds', async ({ assert }) => {
    assert.deepInclude(defaultsOf(registry.get('gmail-trigger')!) as object, {
      pollMinutes: 1,
      query: 'in:inbox',
    })
    assert.deepInclude(defaultsOf(registry.get('telegram-trigger')!) as object, {
      message: true,
      callbackQuery: false,
    })
    assert.deepInclude(defaultsOf(registry.get('slack-trigger')!) as object, {
      eventTypes: 'message, app_mention',
      ignoreBots: true,
    })
    const gmail = validatorFor(registry.get('gmail-trigger')!)
    for (const pollMinutes of [0, 60]) {
      await assert.rejects(() => gmail.validate({ credentialsId: 'c', pollMinutes }))
    }
  })
})
