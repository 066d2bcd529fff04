import { test } from '@japa/runner'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  loadPlugins,
  manifestProblems,
  PluginManifestError,
  serverOnlyImportsOf,
  type PluginRegistry,
} from '#plugins/registry'
import { pluginSlug, slugOf } from '#plugins/define_plugin'
import {
  defaultItemsOf,
  defaultsOf,
  formOf,
  itemsValidatorFor,
  localeOf,
  validatorFor,
} from '#plugins/derive'

const ROOT = fileURLToPath(new URL('../../../plugins', import.meta.url))
const CONTRACT = fileURLToPath(new URL('../../../app/plugins', import.meta.url))
// Scratch plugins live inside the app so that they load as ESM TypeScript like real ones.
const SCRATCH = fileURLToPath(new URL('../../../tmp', import.meta.url))

async function messagesOf(promise: Promise<unknown>) {
  try {
    await promise
    return ''
  } catch (error: any) {
    return (error.messages ?? []).map((m: any) => m.message).join('\n')
  }
}

const CORE_BLOCKS = [
  'text',
  'image',
  'video',
  'embed',
  'audio',
  'text input',
  'number input',
  'email input',
  'url input',
  'date input',
  'phone number input',
  'choice input',
  'picture choice input',
  'payment input',
  'rating input',
  'file input',
  'location input',
  'Set variable',
  'Condition',
  'Redirect',
  'Code',
  'Typebot link',
  'Wait',
  'AB test',
  'Jump',
  'webhook',
  'Webhook',
]

test.group('Plugin registry: the core plugins', (group) => {
  let registry: PluginRegistry
  group.setup(async () => {
    registry = await loadPlugins(ROOT)
  })

  test('every core block is registered once, in the folder of its slug', ({ assert }) => {
    const ids = registry.all().map((plugin) => plugin.id)
    assert.equal(new Set(ids).size, ids.length)
    for (const id of CORE_BLOCKS) assert.isTrue(registry.has(id), id)
    for (const plugin of registry.all()) {
      assert.equal(basename(registry.folderOf(plugin.id)!), pluginSlug(plugin))
      if (!plugin.slug) assert.equal(pluginSlug(plugin), slugOf(plugin.id))
    }
    assert.equal(basename(registry.folderOf('Webhook')!), 'http-request')
    assert.equal(basename(registry.folderOf('webhook')!), 'webhook')
    assert.equal(basename(registry.folderOf('Set variable')!), 'set-variable')
  })

  test('categories group the bot blocks as the editor sidebar does', ({ assert }) => {
    const groups = registry.byCategory()
    assert.sameMembers(
      groups.bubble!.map((p) => p.id),
      ['text', 'image', 'video', 'embed', 'audio']
    )
    assert.includeMembers(
      groups.input!.map((p) => p.id),
      ['text input', 'file input', 'location input']
    )
    assert.includeMembers(
      groups.logic!.map((p) => p.id),
      ['Set variable', 'Condition', 'AB test', 'webhook']
    )
    assert.includeMembers(
      groups.integration!.map((p) => p.id),
      ['Webhook']
    )
    assert.includeMembers(
      registry.forBots().map((p) => p.id),
      CORE_BLOCKS
    )
  })

  test("every core plugin's defaults pass its own validators", async ({ assert }) => {
    for (const plugin of registry.all()) {
      const defaults = defaultsOf(plugin)
      await assert.doesNotReject(
        () => validatorFor(plugin, { mode: 'save' }).validate(defaults),
        plugin.id
      )
      const hasRequired = JSON.stringify(plugin.options ?? {}).includes('"required":true')
      if (!hasRequired)
        await assert.doesNotReject(() => validatorFor(plugin).validate(defaults), plugin.id)
      if (plugin.items) {
        const items = defaultItemsOf(plugin).map((item, index) => ({ id: `i${index}`, ...item }))
        await assert.doesNotReject(() => itemsValidatorFor(plugin).validate({ items }), plugin.id)
      }
    }
  })

  test('every core plugin has a README, and an en.json matching its declaration', async ({
    assert,
  }) => {
    for (const plugin of registry.all()) {
      const folder = registry.folderOf(plugin.id)!
      assert.isTrue(existsSync(join(folder, 'README.md')), `${plugin.id} README`)
      const locale = JSON.parse(await readFile(join(folder, 'locales/en.json'), 'utf8'))
      assert.deepEqual(
        locale,
        JSON.parse(JSON.stringify(localeOf(plugin))),
        `${plugin.id} locales/en.json`
      )
      assert.doesNotThrow(() => JSON.stringify(formOf(plugin)))
    }
  })

  test('manifests and the contract they import stay browser-safe', async ({ assert }) => {
    for (const plugin of registry.all()) {
      const source = await readFile(join(registry.folderOf(plugin.id)!, 'index.ts'), 'utf8')
      assert.deepEqual(serverOnlyImportsOf(source), [], plugin.id)
    }
    for (const file of ['define_plugin.ts', 'fields.ts', 'common_fields.ts', 'substitute.ts']) {
      assert.deepEqual(serverOnlyImportsOf(await readFile(join(CONTRACT, file), 'utf8')), [], file)
    }
  })

  test('declared defaults are stored word for word', ({ assert }) => {
    const defaults = (id: string) => defaultsOf(registry.get(id)!) as any
    assert.equal(defaults('text input').labels.button, 'Send')
    assert.equal(defaults('choice input').searchInputPlaceholder, 'Filter the options...')
    assert.deepInclude(defaults('payment input'), {
      provider: 'Stripe',
      currency: 'USD',
      retryMessageContent: 'Payment failed. Please, try again.',
    })
    assert.deepEqual(defaults('payment input').labels, { button: 'Pay', success: 'Success' })
    assert.deepInclude(defaults('file input'), {
      isRequired: true,
      isMultipleAllowed: false,
      visibility: 'Auto',
    })
    assert.deepInclude(defaults('file input').labels, {
      button: 'Upload',
      clear: 'Clear',
      skip: 'Skip',
    })
    assert.deepEqual(defaults('file input').labels.success, {
      single: 'File uploaded',
      multiple: '{total} files uploaded',
    })
    assert.include(defaults('file input').labels.placeholder, '10MB')
    assert.deepInclude(defaults('video'), {
      height: 400,
      aspectRatio: '16/9',
      maxWidth: '100%',
      areControlsDisplayed: true,
      isAutoplayEnabled: true,
    })
    assert.equal(defaults('Webhook').webhook.method, 'POST')
    assert.equal(defaults('AB test').aPercent, 50)
    const setVariable = registry.get('Set variable')!
    assert.lengthOf((setVariable.options as any).type.options, 18)
  })

  test('core bounds: AB test 0-100, HTTP timeout at least 1, video formats', async ({ assert }) => {
    const ab = validatorFor(registry.get('AB test')!)
    assert.equal(
      await messagesOf(ab.validate({ aPercent: 101 })),
      'Percent of visitors on path A must be at most 100'
    )
    assert.equal(
      await messagesOf(ab.validate({ aPercent: -1 })),
      'Percent of visitors on path A must be at least 0'
    )
    const http = validatorFor(registry.get('Webhook')!)
    assert.equal(
      await messagesOf(http.validate({ timeout: 0 })),
      'Timeout (seconds) must be at least 1'
    )
    assert.match(
      await messagesOf(http.validate({ webhook: { method: 'FETCH' } })),
      /^Method must be one of POST, GET/
    )
    const video = validatorFor(registry.get('video')!)
    await assert.doesNotReject(() => video.validate({ aspectRatio: '9/16', maxWidth: '300px' }))
    assert.equal(
      await messagesOf(video.validate({ aspectRatio: 'wide' })),
      'Aspect ratio must look like 16/9'
    )
    assert.equal(
      await messagesOf(video.validate({ maxWidth: '300' })),
      'Maximum width must look like 300px or 100%'
    )
    const number = validatorFor(registry.get('number input')!)
    await assert.doesNotReject(() => number.validate({ min: '{{Min}}', max: 10 }))
  })

  test('imported blocks keep keys the declaration does not know', async ({ assert }) => {
    const options = {
      labels: { placeholder: 'Hi', button: 'Go', futureLabel: 'x' },
      someNewFlag: true,
    }
    const valid = await validatorFor(registry.get('text input')!).validate(options)
    assert.deepEqual(valid, options)
  })

  test('runners come from runner.ts; unknown plugins have none', async ({ assert }) => {
    assert.isFunction(await registry.runnerOf('text'))
    assert.isUndefined(await registry.runnerOf('nope'))
  })
})

test.group('Plugin registry: checks', (group) => {
  let root: string
  const contract = (file: string) => JSON.stringify(join(CONTRACT, file))

  async function writePlugin(folder: string, manifest: string, runner?: string) {
    await mkdir(join(root, folder), { recursive: true })
    await writeFile(
      join(root, folder, 'index.ts'),
      `import { definePlugin } from ${contract('define_plugin.js')}\nexport default definePlugin(${manifest})\n`
    )
    if (runner) await writeFile(join(root, folder, 'runner.ts'), runner)
  }

  group.each.setup(async () => {
    await mkdir(SCRATCH, { recursive: true })
    root = await mkdtemp(join(SCRATCH, 'plugins-'))
    return () => rm(root, { recursive: true, force: true })
  })

  test('loads a runner lazily, per action or as run', async ({ assert }) => {
    await writePlugin(
      'my-block',
      `{ id: 'My block', name: 'Mine', fullName: 'Mine', tags: [], category: 'integration', scope: 'user', version: 1, serves: ['bot'] }`,
      `export const run = async () => ({ outgoingEdgeId: 'e1' })\nexport const greet = () => ({ output: 'hi', logs: [] })\n`
    )
    const registry = await loadPlugins(root)
    const run = await registry.runnerOf('My block')
    assert.deepEqual(await run!({} as any), { outgoingEdgeId: 'e1' })
    const greet = await registry.runnerOf('My block', 'greet')
    assert.deepEqual(await greet!({} as any), { output: 'hi', logs: [] })
    assert.isUndefined(await registry.runnerOf('My block', 'missing'))
  })

  test('a plugin with a chat viewer keeps the slug of its id', async ({ assert }) => {
    await writePlugin(
      'my-answer',
      `{ id: 'answer', slug: 'my-answer', name: 'A', fullName: 'A', tags: [], category: 'input', scope: 'user', version: 1, serves: ['bot'] }`
    )
    await writeFile(join(root, 'my-answer', 'viewer.tsx'), 'export default () => null\n')
    await assert.rejects(
      () => loadPlugins(root),
      /plugins\/my-answer: a plugin with a viewer must keep the slug of its id \("answer"\)/
    )
  })

  test('refuses a folder that is not the slug, an unknown category and a duplicate id', async ({
    assert,
  }) => {
    await writePlugin(
      'wrong-folder',
      `{ id: 'My block', name: 'A', fullName: 'A', tags: [], category: 'integration', scope: 'user', version: 1, serves: ['bot'] }`
    )
    await writePlugin(
      'my-block',
      `{ id: 'My block', name: 'B', fullName: 'B', tags: [], category: 'widget', scope: 'user', version: 1, serves: ['bot'] }`
    )
    await writePlugin(
      'other',
      `{ id: 'other', name: 'C', fullName: 'C', tags: [], category: 'model', scope: 'user', version: 1, serves: ['bot'] }`
    )
    try {
      await loadPlugins(root)
      assert.fail('should have thrown')
    } catch (error) {
      assert.instanceOf(error, PluginManifestError)
      const problems = (error as PluginManifestError).problems.join('\n')
      assert.include(
        problems,
        'plugins/wrong-folder: the folder of "My block" must be plugins/my-block'
      )
      assert.include(problems, 'plugins/my-block: category "widget" is not one of')
      assert.include(problems, 'plugins/other: category "model" is not a bot category')
    }
  })

  test('refuses two plugins with the same id', async ({ assert }) => {
    await writePlugin(
      'hook',
      `{ id: 'hook', name: 'A', fullName: 'A', tags: [], category: 'logic', scope: 'user', version: 1, serves: ['bot'] }`
    )
    await writePlugin(
      'hook-2',
      `{ id: 'hook', slug: 'hook-2', name: 'B', fullName: 'B', tags: [], category: 'logic', scope: 'user', version: 1, serves: ['bot'] }`
    )
    await assert.rejects(() => loadPlugins(root), /id "hook" is already used by plugins\/hook/)
  })

  test('refuses a manifest importing Node modules or its runner', async ({ assert }) => {
    await mkdir(join(root, 'leaky'), { recursive: true })
    await writeFile(
      join(root, 'leaky', 'index.ts'),
      `import { readFileSync } from 'node:fs'\nimport { run } from './runner.js'\nexport default { readFileSync, run }\n`
    )
    await assert.rejects(
      () => loadPlugins(root),
      /index must stay browser-safe, it imports node:fs, \.\/runner\.js/
    )
    assert.deepEqual(
      serverOnlyImportsOf(
        `import fs from 'fs'\nimport x from '@vinejs/vine'\nconst m = await import("crypto")`
      ),
      ['fs', 'crypto']
    )
  })

  test('an empty or missing folder gives an empty registry', async ({ assert }) => {
    assert.lengthOf((await loadPlugins(root)).all(), 0)
    assert.lengthOf((await loadPlugins(join(root, 'missing'))).all(), 0)
  })
  test('hostScripts must be https origins (what an embed may load into a host page)', ({
    assert,
  }) => {
    const manifest = (hostScripts: string[]) => ({
      id: 'widget',
      name: 'Widget',
      fullName: 'Chat widget',
      tags: ['widget'],
      category: 'integration',
      scope: 'user',
      version: 1,
      serves: ['bot'],
      hostScripts,
    })
    assert.deepEqual(manifestProblems(manifest(['https://cdn.example.com']), 'widget'), [])
    for (const bad of [
      'http://cdn.example.com',
      'https://cdn.example.com/sdk.js',
      'https://cdn.example.com/',
      'javascript:alert(1)',
      '*',
    ]) {
      assert.deepEqual(manifestProblems(manifest([bad]), 'widget'), [
        `plugins/widget: hostScripts "${bad}" must be an https origin (https://host)`,
      ])
    }
  })
  test('a vector store backend needs credentials (the account a store lives in)', ({ assert }) => {
    const manifest = (credentials?: Record<string, unknown>) => ({
      id: 'vectors',
      name: 'Vectors',
      fullName: 'Vector service',
      tags: ['vector'],
      category: 'integration',
      scope: 'workspace',
      version: 1,
      serves: ['bot'],
      vectorStore: true,
      ...(credentials ? { credentials } : {}),
    })
    assert.deepEqual(manifestProblems(manifest(), 'vectors'), [
      'plugins/vectors: vectorStore needs credentials (the account a store lives in)',
    ])
    assert.deepEqual(
      manifestProblems(manifest({ apiKey: { kind: 'string', secret: true } }), 'vectors'),
      []
    )
  })

  test('the Pinecone plugin offers knowledge stores a backend', async ({ assert }) => {
    const registry = await loadPlugins(ROOT)
    assert.isTrue(registry.get('pinecone')?.vectorStore)
    const backend = await registry.exportOf<{ embeddingModel: string; batchSize: number }>(
      'pinecone',
      'vectorStore'
    )
    assert.equal(backend?.embeddingModel, 'llama-text-embed-v2')
    assert.equal(backend?.batchSize, 96)
  })
})
