import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import AiUsage from '#models/ai_usage'
import Workflow from '#models/workflow'
import WorkflowVersion from '#models/workflow_version'
import BotVersion from '#models/bot_version'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { CreateCredential } from '#actions/credentials/create_credential'
import { resetPluginSettings, setPluginEnabled } from '#services/marketplace'
import { remainingAiCredits } from '#services/ai/credits'
import { COPILOT_TEXTS } from '#shared/copilot'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * The AI copilot (docs/copilot.md) against the
 * OpenAI stand-in scripted to answer with tool calls: each tool on workflows and bots,
 * refusals, the usage limit, AI credits, the history versions and the manual-edit note.
 */

const KEY = 'copilot-key'

type Round = {
  calls?: { name: string; args: (results: any[]) => Record<string, unknown> }[]
  text?: string
}

/**
 * The stand-in plays `rounds` for each user message: the n-th completion after the last
 * user message answers the n-th round. `results` are the tool answers so far (parsed), so
 * later calls may use ids that earlier ones returned.
 */
function scriptOf(rounds: Round[]) {
  return (body: any) => {
    const messages: any[] = body.messages
    const lastUser = messages.map((m) => m.role).lastIndexOf('user')
    const since = messages.slice(lastUser + 1)
    const round = since.filter((m) => m.role === 'assistant').length
    const results = since.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content))
    const step = rounds[round] ?? { text: 'Done.' }
    if (step.calls) {
      return {
        tool_calls: step.calls.map((call, i) => ({
          id: `call_${round}_${i}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args(results)) },
        })),
      }
    }
    return { content: step.text ?? 'Done.' }
  }
}

interface Who {
  user: User
  workspace: Workspace
  credentialsId: string
}

async function builder(baseUrl: string, plan: User['plan'] = 'UNLIMITED'): Promise<Who> {
  const user = await createUser({ name: 'Cora Pilot' })
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  const credential = await new CreateCredential().handle(user, workspace, {
    type: 'openai',
    name: 'My OpenAI',
    data: { apiKey: KEY, baseUrl },
  })
  return { user, workspace, credentialsId: credential.id }
}

async function emptyWorkflow(who: Who, content?: any) {
  return new CreateWorkflow().handle(who.user, who.workspace, content ? { content } : {})
}

function send(client: ApiClient, who: Who, path: string, content: string) {
  return client.post(`${path}/copilot/messages`).loginAs(who.user).withCsrfToken().json({ content })
}

async function withStandIn(rounds: Round[], cleanup: (fn: () => void | Promise<void>) => void) {
  const standIn = await startOpenAiStandIn({ apiKey: KEY, script: scriptOf(rounds) })
  cleanup(() => standIn.close())
  return standIn
}

test.group('Copilot: conversation', (group) => {
  group.each.teardown(() => resetPluginSettings())

  test('an empty chat is greeted with suggestions; the usable credentials and the usage come with it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([], cleanup)
    const who = await builder(standIn.baseUrl, 'FREE')
    const workflow = await emptyWorkflow(who)
    const response = await client
      .post(`/api/workflows/${workflow.id}/copilot`)
      .loginAs(who.user)
      .withCsrfToken()
    response.assertStatus(200)
    const body = response.body()
    assert.lengthOf(body.messages, 2)
    assert.equal(body.messages[0].role, 'ASSISTANT')
    assert.match(body.messages[0].content, /copilot/)
    assert.equal(body.messages[1].type, 'SUGGESTION')
    assert.isAbove(body.messages[1].usage.suggestions.length, 0)
    assert.deepEqual(body.usage, { totalMessages: 0, messagesLimit: 100 })
    assert.deepEqual(
      body.credentials.map((c: any) => [c.id, c.type, c.model]),
      [[who.credentialsId, 'openai', 'gpt-4o-mini']]
    )
    // Loading again does not greet twice.
    const again = await client
      .post(`/api/workflows/${workflow.id}/copilot`)
      .loginAs(who.user)
      .withCsrfToken()
    assert.lengthOf(again.body().messages, 2)
  })

  test('white space is refused, and without an AI credential the builder is told to add one', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([], cleanup)
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who)
    const blank = await send(client, who, `/api/workflows/${workflow.id}`, '   \n ')
    blank.assertStatus(422)

    const other = await createUser()
    const otherWorkspace = await firstWorkspaceOf(other)
    const theirs = await new CreateWorkflow().handle(other, otherWorkspace, {})
    const none = await send(
      client,
      { user: other, workspace: otherWorkspace, credentialsId: '' },
      `/api/workflows/${theirs.id}`,
      'Add a trigger'
    )
    none.assertStatus(422)
    assert.equal(none.body().message, 'No AI provider')
    assert.match(none.body().description, /Add an AI provider credential/)
    assert.lengthOf(standIn.requests, 0)
    // Someone outside the workspace cannot talk to this workflow's copilot.
    const foreign = await send(
      client,
      { user: other } as Who,
      `/api/workflows/${workflow.id}`,
      'hi'
    )
    foreign.assertStatus(404)
  })

  test('add_node and connectFrom build the graph; the change is one assistant version, charged in AI credits', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn(
      [
        { calls: [{ name: 'describe_node_type', args: () => ({ type: 'Webhook' }) }] },
        {
          calls: [
            { name: 'add_node', args: () => ({ type: 'webhook-trigger', title: 'Incoming' }) },
          ],
        },
        {
          calls: [
            {
              name: 'add_node',
              args: (results) => ({
                type: 'Webhook',
                connectFrom: results[1].nodeId,
                options: { webhook: { method: 'GET', url: 'https://example.com/ping' } },
              }),
            },
          ],
        },
        {
          calls: [
            { name: 'suggest_replies', args: () => ({ replies: ['Publish it', 'Add a log'] }) },
          ],
        },
        { text: 'I added a webhook trigger followed by an HTTP request.' },
      ],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const before = await remainingAiCredits(who.user.id)
    const workflow = await emptyWorkflow(who)
    const response = await send(
      client,
      who,
      `/api/workflows/${workflow.id}`,
      'Start from a webhook, then call https://example.com/ping'
    )
    response.assertStatus(200)
    const body = response.body()
    assert.isTrue(body.isUpdated)
    const [trigger, http] = body.document.blocks
    assert.equal(trigger.type, 'webhook-trigger')
    assert.equal(trigger.title, 'Incoming')
    assert.equal(http.type, 'Webhook')
    assert.equal(http.options.webhook.url, 'https://example.com/ping')
    assert.equal(http.graphCoordinates.x, trigger.graphCoordinates.x + 300)
    assert.lengthOf(body.document.edges, 1)
    assert.equal(trigger.outgoingEdgeId, body.document.edges[0].id)
    assert.isTrue(body.document.isModifiedByAi)

    // The reply, its version card, then the suggestions.
    const [user, reply, suggestion] = body.messages.slice(-3)
    assert.equal(user.role, 'USER')
    assert.equal(reply.content, 'I added a webhook trigger followed by an HTTP request.')
    assert.isTrue(reply.showVersionCard)
    assert.equal(reply.versionName, 'Version 2')
    assert.deepEqual(suggestion.usage.suggestions, ['Publish it', 'Add a log'])
    assert.deepEqual(body.usage.totalMessages, 1)

    const versions = await WorkflowVersion.query()
      .where('workflow_id', workflow.id)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
    assert.deepEqual(
      versions.map((v) => [v.versionName, v.kind, v.updatedBy]),
      [
        ['Initial Version', 'draft', 'user'],
        ['Version 2', 'assistant', 'assistant'],
      ]
    )
    assert.equal(versions[1].id, reply.versionId)
    assert.lengthOf(versions[0].workflow.blocks, 0)

    // The model saw the catalogue and the tools; every round was charged.
    const system = standIn.requests[0].json.messages[0].content
    assert.include(system, 'webhook-trigger')
    assert.includeMembers(
      standIn.requests[0].json.tools.map((t: any) => t.function.name),
      ['add_node', 'remove_node', 'connect_nodes', 'configure_node', 'describe_node_type']
    )
    const describe = JSON.parse(standIn.requests[1].json.messages.at(-1).content)
    assert.equal(describe.type, 'Webhook')
    assert.isTrue(describe.fields.some((f: any) => f.name === 'webhook'))
    const usages = await AiUsage.query().where('accountId', who.user.id).where('source', 'copilot')
    assert.lengthOf(usages, 5)
    assert.isBelow((await remainingAiCredits(who.user.id))!, before!)
  })

  test('remove_node, connect_nodes, configure_node and disconnect change an existing workflow', async ({
    client,
    assert,
    cleanup,
  }) => {
    const at = (x: number) => ({ x, y: 0 })
    const standIn = await withStandIn(
      [
        {
          calls: [
            { name: 'remove_node', args: () => ({ nodeId: 'b' }) },
            { name: 'connect_nodes', args: () => ({ fromNodeId: 'a', toNodeId: 'c' }) },
            {
              name: 'configure_node',
              args: () => ({
                nodeId: 'c',
                title: 'Ping',
                options: { webhook: { url: 'https://x.test' } },
              }),
            },
          ],
        },
        { calls: [{ name: 'disconnect', args: (results) => ({ edgeId: results[1].edgeId }) }] },
        { calls: [{ name: 'connect_nodes', args: () => ({ fromNodeId: 'a', toNodeId: 'c' }) }] },
        { text: 'Rewired.' },
      ],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who, {
      name: 'Three',
      blocks: [
        { id: 'a', type: 'manual-trigger', graphCoordinates: at(0) },
        { id: 'b', type: 'Webhook', graphCoordinates: at(300), options: {} },
        { id: 'c', type: 'Webhook', graphCoordinates: at(600), options: {} },
      ],
      edges: [
        { id: 'e1', from: { blockId: 'a' }, to: { blockId: 'b' } },
        { id: 'e2', from: { blockId: 'b' }, to: { blockId: 'c' } },
      ],
      variables: [],
      settings: {},
    })
    const response = await send(
      client,
      who,
      `/api/workflows/${workflow.id}`,
      'Skip the middle node'
    )
    response.assertStatus(200)
    const doc = response.body().document
    assert.deepEqual(
      doc.blocks.map((b: any) => b.id),
      ['a', 'c']
    )
    assert.lengthOf(doc.edges, 1)
    assert.deepEqual([doc.edges[0].from.blockId, doc.edges[0].to.blockId], ['a', 'c'])
    assert.equal(doc.blocks[0].outgoingEdgeId, doc.edges[0].id)
    assert.equal(doc.blocks[1].title, 'Ping')
    assert.equal(doc.blocks[1].options.webhook.url, 'https://x.test')
    const stored = await Workflow.findOrFail(workflow.id)
    assert.equal(stored.updatedBy, 'assistant')
  })

  test('refused tool calls change nothing and tell the model why', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn(
      [
        {
          calls: [
            { name: 'add_node', args: () => ({ type: 'no-such-node' }) },
            { name: 'add_node', args: () => ({ type: 'Webhook', options: { colour: 'red' } }) },
            { name: 'add_node', args: () => ({ type: 'text' }) },
            { name: 'configure_node', args: () => ({ nodeId: 'ghost', options: {} }) },
            { name: 'connect_nodes', args: () => ({ fromNodeId: 'a', toNodeId: 'a' }) },
            {
              name: 'connect_nodes',
              args: () => ({ fromNodeId: 'a', toNodeId: 'a', slot: 'model' }),
            },
          ],
        },
        { text: 'I could not do that.' },
      ],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who, {
      name: 'One',
      blocks: [{ id: 'a', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } }],
      edges: [],
      variables: [],
      settings: {},
    })
    const response = await send(client, who, `/api/workflows/${workflow.id}`, 'Do odd things')
    response.assertStatus(200)
    assert.isFalse(response.body().isUpdated)
    assert.isNull(response.body().document)
    const refusals = standIn.requests[1].json.messages
      .filter((m: any) => m.role === 'tool')
      .map((m: any) => JSON.parse(m.content).refused)
    assert.match(refusals[0], /Unknown node type "no-such-node"/)
    assert.match(refusals[1], /has no field "colour"/)
    // A bot-only block is not offered in the workflow editor.
    assert.match(refusals[2], /Unknown node type "text"/)
    assert.match(refusals[3], /No node has the id "ghost"/)
    assert.match(refusals[4], /cannot be linked to itself/)
    assert.match(refusals[5], /cannot be linked to itself/)
    assert.lengthOf(await WorkflowVersion.query().where('workflow_id', workflow.id), 0)
    assert.isFalse((await Workflow.findOrFail(workflow.id)).isModifiedByAi)
    // The message was answered: it counts.
    assert.equal(response.body().usage.totalMessages, 1)
  })

  test('node types disabled on the builder’s plan are refused like in the palette', async ({
    client,
    assert,
    cleanup,
  }) => {
    await setPluginEnabled('Webhook', 'UNLIMITED', false)
    const standIn = await withStandIn(
      [{ calls: [{ name: 'add_node', args: () => ({ type: 'Webhook' }) }] }, { text: 'No.' }],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who)
    const response = await send(client, who, `/api/workflows/${workflow.id}`, 'Add an HTTP call')
    response.assertStatus(200)
    const tool = standIn.requests[1].json.messages.find((m: any) => m.role === 'tool')
    assert.match(JSON.parse(tool.content).refused, /not available on the builder's plan/)
    assert.isFalse(response.body().isUpdated)
  })

  test('over userCopilotLimit the chat says so and the model is not called', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([{ text: 'Hello' }], cleanup)
    const who = await builder(standIn.baseUrl, 'FREE')
    const workflow = await emptyWorkflow(who)
    // FREE allows 100 answered messages.
    const now = new Date()
    await db.table('copilot_messages').multiInsert(
      Array.from({ length: 100 }, () => ({
        user_id: who.user.id,
        workspace_id: who.workspace.id,
        document_type: 'workflow',
        document_id: 'elsewhere',
        role: 'USER',
        type: 'TEXT',
        content: 'earlier',
        counted: true,
        show_version_card: false,
        created_at: now,
      }))
    )
    const response = await send(client, who, `/api/workflows/${workflow.id}`, 'One more')
    response.assertStatus(200)
    const last = response.body().messages.at(-1)
    assert.equal(last.content, COPILOT_TEXTS.limitExceeded)
    assert.deepEqual(response.body().usage, { totalMessages: 100, messagesLimit: 100 })
    assert.lengthOf(standIn.requests, 0)
  })

  test('a failed AI call answers with an apology and counts nothing', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([{ text: 'never' }], cleanup)
    standIn.failWith(500, { error: { message: 'boom' } })
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who)
    const response = await send(client, who, `/api/workflows/${workflow.id}`, 'Hello')
    response.assertStatus(200)
    assert.equal(
      response.body().messages.at(-1).content,
      `${COPILOT_TEXTS.failure}\n\nCause: the model server answered 500: boom`
    )
    assert.equal(response.body().usage.totalMessages, 0)
  })

  test('a model server on the internal network: refused with the cause shown, reachable once the operator lists it', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([{ text: 'Hello from the local model' }], cleanup)
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who)
    env.set('ALLOW_INTERNAL_HTTP', false)
    cleanup(() => {
      env.set('ALLOW_INTERNAL_HTTP', true)
      env.set('CREDENTIAL_INTERNAL_HOSTS', undefined as any)
      // env.set wrote the text "undefined" into process.env, which ace commands started later read.
      delete process.env.CREDENTIAL_INTERNAL_HOSTS
    })

    const refused = await send(client, who, `/api/workflows/${workflow.id}`, 'Hello')
    refused.assertStatus(200)
    const apology = refused.body().messages.at(-1).content as string
    assert.isTrue(apology.startsWith(`${COPILOT_TEXTS.failure}\n\nCause: `))
    assert.include(apology, 'internal network addresses are not allowed')
    assert.include(apology, 'CREDENTIAL_INTERNAL_HOSTS')

    // Another port of the same host stays closed; the listed host:port opens.
    const port = Number(new URL(standIn.baseUrl).port)
    env.set('CREDENTIAL_INTERNAL_HOSTS', `127.0.0.1:${port + 1}`)
    const otherPort = await send(client, who, `/api/workflows/${workflow.id}`, 'Hello again')
    assert.include(otherPort.body().messages.at(-1).content, 'not allowed')

    env.set('CREDENTIAL_INTERNAL_HOSTS', `localhost, 127.0.0.1:${port}`)
    const answered = await send(client, who, `/api/workflows/${workflow.id}`, 'Hello once more')
    answered.assertStatus(200)
    assert.equal(answered.body().messages.at(-1).content, 'Hello from the local model')
  })

  test('without AI credits the chat says so and the model is not called', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn([{ text: 'never' }], cleanup)
    const who = await builder(standIn.baseUrl)
    await db.from('users').where('id', who.user.id).update({ ai_credits: 0 })
    const workflow = await emptyWorkflow(who)
    const response = await send(client, who, `/api/workflows/${workflow.id}`, 'Hello')
    response.assertStatus(200)
    assert.match(response.body().messages.at(-1).content, /no AI credits left/)
    assert.lengthOf(standIn.requests, 0)
    assert.equal(response.body().usage.totalMessages, 0)
  })

  test('a builder’s own edit after a copilot change adds the note once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn(
      [
        { calls: [{ name: 'add_node', args: () => ({ type: 'manual-trigger' }) }] },
        { text: 'Added.' },
      ],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const workflow = await emptyWorkflow(who)
    const path = `/api/workflows/${workflow.id}`
    const first = await send(client, who, path, 'Add a manual trigger')
    const doc = first.body().document
    const edited = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({
        blocks: doc.blocks.map((b: any) => ({ ...b, title: 'Mine' })),
        revision: doc.revision,
      })
    edited.assertStatus(200)
    const shown = await client.post(`${path}/copilot`).loginAs(who.user).withCsrfToken()
    assert.equal(shown.body().messages.at(-1).content, COPILOT_TEXTS.manualUpdate)
    const again = await client.post(`${path}/copilot`).loginAs(who.user).withCsrfToken()
    assert.equal(
      again.body().messages.filter((m: any) => m.content === COPILOT_TEXTS.manualUpdate).length,
      1
    )
    const versions = await WorkflowVersion.query().where('workflow_id', workflow.id)
    assert.lengthOf(versions, 3)
  })
})

test.group('Copilot: bots', () => {
  test('add_block, connect, configure_block and rename_group build a bot as one assistant version', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await withStandIn(
      [
        {
          calls: [
            {
              name: 'add_block',
              args: () => ({
                type: 'text',
                groupTitle: 'Welcome',
                options: { richText: [{ type: 'p', children: [{ text: 'Hi there' }] }] },
              }),
            },
          ],
        },
        {
          calls: [
            { name: 'add_block', args: (r) => ({ type: 'email input', groupId: r[0].groupId }) },
            { name: 'connect', args: (r) => ({ fromStart: true, toGroupId: r[0].groupId }) },
          ],
        },
        {
          calls: [
            {
              name: 'configure_block',
              args: (r) => ({ blockId: r[1].blockId, options: { variableId: null } }),
            },
            { name: 'rename_group', args: (r) => ({ groupId: r[0].groupId, title: 'Hello' }) },
            { name: 'remove_block', args: () => ({ blockId: 'ghost' }) },
          ],
        },
        { text: 'Your bot greets visitors and asks for their e-mail.' },
      ],
      cleanup
    )
    const who = await builder(standIn.baseUrl)
    const bot = await new CreateBot().handle(who.user, who.workspace, { name: 'Greeter' })
    const response = await send(client, who, `/api/bots/${bot.id}`, 'Greet and ask for an e-mail')
    response.assertStatus(200)
    const body = response.body()
    assert.isTrue(body.isUpdated)
    const group = body.document.groups.find((g: any) => g.title === 'Hello')
    assert.exists(group)
    assert.deepEqual(
      group.blocks.map((b: any) => b.type),
      ['text', 'email input']
    )
    assert.equal(group.blocks[0].content.richText[0].children[0].text, 'Hi there')
    const start = body.document.events[0]
    const edge = body.document.edges.find((e: any) => e.id === start.outgoingEdgeId)
    assert.equal(edge.to.groupId, group.id)
    const tool = standIn.requests[3].json.messages.filter((m: any) => m.role === 'tool').at(-1)
    assert.match(JSON.parse(tool.content).refused, /No block has the id "ghost"/)

    const versions = await BotVersion.query().where('bot_id', bot.id).orderBy('created_at', 'asc')
    assert.deepEqual(
      versions.map((v) => v.kind),
      ['draft', 'assistant']
    )
    assert.equal(body.messages.at(-1).versionId, versions[1].id)
    assert.isAbove(body.document.revision, bot.revision ?? 0)
  })
})
