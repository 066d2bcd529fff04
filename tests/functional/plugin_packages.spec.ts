import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { findPluginPackages, loadPlugins } from '#plugins/registry'
import { forgetPluginRegistry, loadAppPlugins, pluginRegistry } from '#services/plugin_registry'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import type { StartChatResponse } from '#shared/chat/types'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { publishedWorkflow } from './workflow_fixtures.js'
import PluginsList from '../../commands/plugins_list.js'

/**
 * Plugins as npm packages (docs/plugins.md, "Plugins as packages"): the fixture package
 * tests/fixtures/plugin_package, linked into node_modules as an installed package would be,
 * is listed in both palettes and by plugins:list, and runs in a chat and in a workflow run.
 */

const NAME = 'flowcraft-plugin-sample-greeting'
const FIXTURE = fileURLToPath(new URL('../fixtures/plugin_package', import.meta.url))
const LINK = app.makePath('node_modules', NAME)

test.group('Plugins | npm packages', (group) => {
  group.setup(async () => {
    const before = app.config.get<string[]>('plugins.packages', [])
    // A link left by an interrupted run is replaced.
    if (await lstat(LINK).catch(() => null)) await rm(LINK, { recursive: true, force: true })
    await symlink(FIXTURE, LINK, 'dir')
    app.config.set('plugins.packages', [...before, NAME])
    forgetPluginRegistry()
    return async () => {
      await rm(LINK, { force: true })
      app.config.set('plugins.packages', before)
      forgetPluginRegistry()
    }
  })

  test('the package is a plugin of the registry, with its source', async ({ assert }) => {
    const registry = await pluginRegistry()
    const plugin = registry.get('sample-greeting')
    assert.equal(plugin?.name, 'Sample greeting')
    assert.deepEqual(registry.sourceOf('sample-greeting'), {
      kind: 'package',
      name: NAME,
      version: '1.2.0',
      path: FIXTURE,
    })
    assert.deepEqual(registry.sourceOf('text'), { kind: 'folder', path: 'plugins/text' })
    // Its runner, icon and the rest are found beside its manifest.
    assert.equal(registry.folderOf('sample-greeting'), FIXTURE)
    assert.isFunction(await registry.runnerOf('sample-greeting'))
  })

  test('it is in the bot sidebar and in the workflow palette', async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Greeter' })
    const botPage = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    botPage.assertStatus(200)
    const inBots = (botPage.inertiaProps.plugins as any[]).find((p) => p.id === 'sample-greeting')
    assert.equal(inBots?.category, 'integration')

    const api = await client
      .get(`/api/v1/plugins?workspaceId=${workspace.id}&surface=workflow`)
      .loginAs(user)
    api.assertStatus(200)
    const listed = api.body().plugins.find((p: any) => p.id === 'sample-greeting')
    assert.equal(listed?.category, 'action')
  })

  test('a chat runs it: the bubble after it shows the greeting it saved', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `pkg-${Date.now()}`)).value
    const bot = {
      version: '6',
      name: 'Greeter',
      groups: [
        {
          id: 'g1',
          title: 'Greet',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [
            {
              id: 'greet',
              type: 'sample-greeting',
              options: { name: '{{Name}}', saveGreetingInVariableId: 'v_greeting' },
            },
            { id: 't1', type: 'text', content: { plainText: '{{Greeting}}' } },
          ],
        },
      ],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
      edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
      variables: [
        { id: 'v_name', name: 'Name' },
        { id: 'v_greeting', name: 'Greeting' },
      ],
      theme: {},
      settings: {},
    }
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot })
    imported.assertStatus(201)
    const response = await client
      .post(`/api/v1/typebots/${imported.body().bot.id}/preview/startChat`)
      .bearerToken(token)
      .json({ prefilledVariables: { Name: 'Grace' } })
    response.assertStatus(200)
    const start = response.body() as StartChatResponse
    assert.notInclude(
      (start.logs ?? []).map((log) => log.status),
      'error',
      JSON.stringify(start.logs)
    )
    assert.lengthOf(start.messages, 1)
    assert.deepInclude(JSON.stringify(start.messages[0].content), 'Hello, Grace!')
  })

  test('a workflow run runs it: the node outputs the greeting', async ({ assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'greet', type: 'sample-greeting', options: { name: '{{$input.name}}' } },
    ])
    const runId = await createRun(workflow, 'manual', { name: 'Ada' })
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'success')
    const run = await WorkflowRun.findOrFail(runId)
    assert.deepEqual(run.output, { greeting: 'Hello, Ada!' })
    const nodes = await WorkflowRunNode.query().where('runId', runId).orderBy('id')
    assert.deepEqual(
      nodes.map((node) => [node.nodeType, node.status]),
      [
        ['manual-trigger', 'success'],
        ['sample-greeting', 'success'],
      ]
    )
  })

  test('plugins:list shows the package as its source', async ({ assert }) => {
    const command = await ace.create(PluginsList, [])
    command.ui.switchMode('raw')
    try {
      await command.exec()
      const lines = command.ui.logger.getLogs().map((log) => log.message)
      const row = lines.find((line) => line.includes('sample-greeting'))
      assert.exists(row, lines.join('\n'))
      assert.include(row!, `package ${NAME}@1.2.0`)
      assert.include(row!, 'bot, workflow')
      assert.include(row!, 'all')
      const text = lines.find((line) => line.includes('"text"') || /\|\s*text\s*\|/.test(line))
      assert.include(text ?? lines.join('\n'), 'folder plugins/text')
      const file = lines.find((line) => line.includes('file input'))
      assert.include(file!, 'BASIC, STANDARD, ENTERPRIZE, UNLIMITED')
      // A plugin on another plugin's credentials shows that credential type.
      const telegram = lines.find((line) => /folder plugins\/telegram(?!-)/.test(line))
      assert.include(telegram!, 'telegram-trigger')
    } finally {
      command.ui.switchMode('normal')
    }
  })

  test('a dependency declaring flowcraft.plugin is found; a listed package that is not one is refused', async ({
    assert,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-packages-'))
    try {
      const write = async (name: string, manifest: object, files: Record<string, string> = {}) => {
        const folder = join(root, 'node_modules', name)
        await mkdir(folder, { recursive: true })
        await writeFile(
          join(folder, 'package.json'),
          JSON.stringify({ name, type: 'module', ...manifest })
        )
        for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text)
      }
      await writeFile(
        join(root, 'package.json'),
        JSON.stringify({ dependencies: { 'left-pad': '1', 'weather-plugin': '1' } })
      )
      await write('left-pad', { version: '1.0.0' })
      await write(
        'weather-plugin',
        { version: '2.0.0', flowcraft: { plugin: './manifest.js' } },
        { 'manifest.js': 'export default {}' }
      )
      await write('not-a-plugin', { version: '1.0.0' })
      await write('escapes', { version: '1.0.0', flowcraft: { plugin: '../left-pad/x.js' } })

      const found = await findPluginPackages(root)
      assert.deepEqual(
        found.packages.map((p) => [p.name, p.version]),
        [['weather-plugin', '2.0.0']]
      )
      assert.deepEqual(found.problems, [])

      const listed = await findPluginPackages(root, ['not-a-plugin', 'missing', 'escapes'])
      assert.sameMembers(listed.problems, [
        'package escapes: flowcraft.plugin "../left-pad/x.js" is not a file of the package',
        'package missing: not installed (config/plugins.ts lists it)',
        'package not-a-plugin: its package.json has no flowcraft.plugin',
      ])
      // The registry reports them, and the package's bad manifest, by the package's name.
      await assert.rejects(
        () => loadPlugins(join(root, 'plugins'), listed),
        /package not-a-plugin: its package.json has no flowcraft.plugin/
      )
      await assert.rejects(
        () => loadPlugins(join(root, 'plugins'), found),
        /package weather-plugin: id is missing/
      )
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  test('a package may not take the slug of a folder plugin', async ({ assert }) => {
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-packages-'))
    try {
      const folder = join(root, 'node_modules', 'texts')
      await mkdir(folder, { recursive: true })
      await writeFile(
        join(folder, 'package.json'),
        JSON.stringify({
          name: 'texts',
          version: '1.0.0',
          type: 'module',
          flowcraft: { plugin: './index.js' },
        })
      )
      await writeFile(
        join(folder, 'index.js'),
        `export default { id: 'Text', name: 'Text', fullName: 'Text', tags: [], category: 'bubble', scope: 'user', version: 1, serves: ['bot'] }`
      )
      const found = await findPluginPackages(root, ['texts'])
      assert.isTrue((await loadAppPlugins(app.makePath())).has('text'))
      await assert.rejects(
        () => loadPlugins(app.makePath('plugins'), found),
        /package texts: slug "text" is already used by plugins\/text/
      )
      assert.isFalse(existsSync(join(root, 'plugins')))
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
