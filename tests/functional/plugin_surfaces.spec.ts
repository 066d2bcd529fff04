import { test } from '@japa/runner'
import { CreateBot } from '#actions/bots/create_bot'
import { loadPlugins, createRegistry } from '#plugins/registry'
import { categoryOn, definePlugin } from '#plugins/define_plugin'
import { pluginRegistry } from '#services/plugin_registry'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { publishedWorkflow } from './workflow_fixtures.js'

/**
 * One plugin, both surfaces: a plugin serving bots and workflows is listed in both editors
 * (under the category of each), and nodes stored under the id of a plugin folded into it
 * load as it. docs/plugins.md, "Serving bots and workflows".
 */
test.group('Plugins | one plugin for bots and workflows', () => {
  test('a plugin serving both is in both palettes, under each surface’s category', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Voice' })
    const botPage = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    botPage.assertStatus(200)
    const inBots = (botPage.inertiaProps.plugins as any[]).find((p) => p.id === 'elevenlabs')
    assert.equal(inBots?.category, 'integration')

    const flow = await publishedWorkflow([{ id: 'n1', type: 'manual-trigger' }])
    const flowPage = await client.get(`/workflows/${flow.id}`).loginAs(flow.user).withInertia()
    flowPage.assertStatus(200)
    const inWorkflows = (flowPage.inertiaProps.plugins as any[]).find((p) => p.id === 'elevenlabs')
    assert.equal(inWorkflows?.category, 'action')

    const api = await client
      .get(`/api/v1/plugins?workspaceId=${workspace.id}&surface=workflow`)
      .loginAs(user)
    api.assertStatus(200)
    const listed = api.body().plugins.find((p: any) => p.id === 'elevenlabs')
    assert.equal(listed?.category, 'action')
  })

  test('a node saved under a folded plugin’s former id opens as that plugin, with its action', async ({
    client,
    assert,
  }) => {
    const flow = await publishedWorkflow([
      { id: 'n1', type: 'manual-trigger' },
      {
        id: 'n2',
        type: 'workflow-elevenlabs',
        options: { text: 'Hi', voiceId: 'voice-adam' },
      },
    ])
    const page = await client.get(`/workflows/${flow.id}`).loginAs(flow.user).withInertia()
    page.assertStatus(200)
    const node = (page.inertiaProps.workflow as any).blocks.find((b: any) => b.id === 'n2')
    assert.equal(node.type, 'elevenlabs')
    assert.deepEqual(node.options, {
      text: 'Hi',
      voiceId: 'voice-adam',
      action: 'Convert text to speech',
    })

    const registry = await pluginRegistry()
    assert.equal(registry.get('workflow-elevenlabs')?.id, 'elevenlabs')
    assert.equal(registry.canonicalId('workflow-elevenlabs'), 'elevenlabs')
    assert.isFunction(await registry.runnerOf('workflow-elevenlabs'))
    assert.notInclude(
      registry.forWorkflows().map((plugin) => plugin.id),
      'workflow-elevenlabs',
      'an alias is not listed as a plugin of its own'
    )
  })

  test('categories: mapped across surfaces unless the manifest names them', ({ assert }) => {
    const both = definePlugin({
      id: 'x',
      name: 'X',
      fullName: 'X',
      tags: [],
      category: 'integration',
      scope: 'user',
      version: 1,
      serves: ['bot', 'workflow'],
    })
    assert.equal(categoryOn(both, 'bot'), 'integration')
    assert.equal(categoryOn(both, 'workflow'), 'action')
    assert.equal(categoryOn({ ...both, category: 'logic' }, 'workflow'), 'flow')
    assert.equal(categoryOn({ ...both, category: 'data' }, 'bot'), 'integration')
    assert.equal(categoryOn({ ...both, categories: { workflow: 'data' } }, 'workflow'), 'data')
  })

  test('the registry refuses an alias another plugin already uses', async ({ assert }) => {
    const registry = createRegistry([
      definePlugin({
        id: 'a',
        name: 'A',
        fullName: 'A',
        tags: [],
        category: 'action',
        scope: 'user',
        version: 1,
        serves: ['workflow'],
        aliases: ['old-a'],
      }),
    ])
    assert.equal(registry.get('old-a')?.id, 'a')
    assert.lengthOf(registry.all(), 1)
    // The real plugins/ folder loads: every alias there is unique.
    await assert.doesNotReject(() =>
      loadPlugins(new URL('../../plugins', import.meta.url).pathname)
    )
  })
})
