import { test } from '@japa/runner'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins, type PluginRegistry } from '#plugins/registry'
import { localeOf } from '#plugins/derive'
import { isShown } from '#plugins/fields'

const ROOT = fileURLToPath(new URL('../../../../plugins', import.meta.url))

/*
 * The editor shows a node's URL only from its manifest (`exposesUrl`) and labels an agent's
 * slots from its locale files: these keep the manifests honest about what the runners do.
 */
test.group('Workflow node URLs and slot labels in manifests', (group) => {
  let registry: PluginRegistry
  group.setup(async () => {
    registry = await loadPlugins(ROOT)
  })

  test('a trigger receiving events or webhook calls declares its URL; a polling one does not', async ({
    assert,
  }) => {
    for (const plugin of registry.forWorkflows()) {
      if (plugin.category !== 'trigger') continue
      const handlesEvents = !!(await registry.exportOf(plugin.id, 'handleEvent'))
      const acceptsCalls = !!(await registry.exportOf(plugin.id, 'acceptsCall'))
      const kind = plugin.exposesUrl?.kind
      if (handlesEvents) assert.equal(kind, 'event', `${plugin.id} handles events`)
      else if (acceptsCalls) assert.equal(kind, 'webhook', `${plugin.id} accepts webhook calls`)
      else assert.isUndefined(kind, `${plugin.id} is not called from outside`)
    }
  })

  test('the webhook trigger names the options of its example call', ({ assert }) => {
    const url = registry.get('webhook-trigger')!.exposesUrl!
    const options = registry.get('webhook-trigger')!.options as Record<string, unknown>
    assert.equal(url.kind, 'webhook')
    assert.property(options, url.methodOption!)
    assert.property(options, url.secretOption!)
    assert.equal(url.secretHeader?.toLowerCase(), 'x-webhook-secret')
  })

  test('a wait shows its resume URL only while it waits for a call', ({ assert }) => {
    const url = registry.get('workflow-wait')!.exposesUrl!
    assert.equal(url.kind, 'resume')
    assert.isTrue(isShown(url.showIf, { resume: 'webhook' }, { resume: 'webhook' }))
    assert.isFalse(isShown(url.showIf, { resume: 'interval' }, { resume: 'interval' }))
  })

  test('slot labels and URL hints are in the locale files, other languages use the same keys', async ({
    assert,
  }) => {
    const agent = registry.get('workflow-llm-agent')!
    const locale = localeOf(agent) as { attachments?: Record<string, { label: string }> }
    assert.deepEqual(locale.attachments, { model: { label: 'Model' }, tools: { label: 'Tools' } })
    assert.deepEqual((localeOf(registry.get('slack-trigger')!) as any).url, {
      hint: registry.get('slack-trigger')!.exposesUrl!.hint,
    })

    // Every other language file of a plugin holds only keys its en.json has.
    const flatKeys = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, child]) =>
            flatKeys(child, prefix ? `${prefix}.${key}` : key)
          )
        : [prefix]
    for (const plugin of registry.all()) {
      const folder = join(registry.folderOf(plugin.id)!, 'locales')
      const files = (await readdir(folder).catch(() => [])).filter((f) => f !== 'en.json')
      if (files.length === 0) continue
      const english = new Set(flatKeys(JSON.parse(await readFile(join(folder, 'en.json'), 'utf8'))))
      for (const file of files) {
        const keys = flatKeys(JSON.parse(await readFile(join(folder, file), 'utf8')))
        for (const key of keys) assert.isTrue(english.has(key), `${plugin.id} ${file}: ${key}`)
      }
    }
  })
})
