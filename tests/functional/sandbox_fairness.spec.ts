import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import Bot from '#models/bot'
import { configureSandbox, disposeSandbox, sandboxPool } from '#sandbox/sandbox'
import type { SandboxPoolOptions } from '#sandbox/types'
import { runWithContext } from '#services/runner_context'
import { definePlugin } from '#plugins/define_plugin'
import { field } from '#plugins/fields'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { messageText } from '#engine/bot/engine'
import { newId } from '#services/ids'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * One workspace's runaway code must not stall another's (docs/sandbox.md). Order is
 * asserted, not time: the runaway runs are ended (abort or pool disposal) once the other
 * workspace's answer is in.
 */

const probe = definePlugin({
  id: 'sandbox-probe',
  name: 'Sandbox probe',
  fullName: 'Sandbox probe',
  tags: [],
  category: 'integration',
  scope: 'workspace',
  version: 1,
  serves: ['bot'],
  options: { text: field.string({ allowVariables: true }) },
})

/** The shared pool as a two-core server has it, runaway runs held for long. */
async function useSharedPool(options: SandboxPoolOptions) {
  await disposeSandbox()
  configureSandbox({ size: 2, ...options })
}

async function restoreSharedPool() {
  await disposeSandbox()
  configureSandbox(app.config.get<SandboxPoolOptions>('sandbox', {}))
}

/** Resolves once `count` runs are in the shared pool (running or waiting). */
async function untilInPool(count: number) {
  while (sandboxPool().stats().busy + sandboxPool().stats().waiting < count) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

function codeBot(code: string) {
  const id = `sbx${newId()}`
  return {
    version: '6',
    id,
    name: 'Sandbox fairness',
    events: [
      { id: `${id}e`, type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: `${id}e1` },
    ],
    edges: [{ id: `${id}e1`, from: { eventId: `${id}e` }, to: { groupId: `${id}g` } }],
    variables: [{ id: `${id}v`, name: 'Answer' }],
    groups: [
      {
        id: `${id}g`,
        title: 'Group',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          { id: `${id}c`, type: 'Code', options: { content: code, isExecutedOnClient: false } },
          {
            id: `${id}t`,
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Answer {{Answer}}' }] }] },
          },
        ],
      },
    ],
    theme: {},
    settings: {},
  }
}

async function publishedBot(client: ApiClient, code: string) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `sbx-${newId()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: codeBot(code) })
  imported.assertStatus(201)
  const id = imported.body().bot.id
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)
  published.assertStatus(200)
  const bot = await Bot.findOrFail(id)
  return { publicId: bot.publicId!, workspaceId: workspace.id }
}

test.group('Sandbox fairness | chat', (group) => {
  group.each.setup(() => useSharedPool({ defaultTimeoutMs: 60_000 }))
  group.each.teardown(() => restoreSharedPool())

  test('six anonymous chats looping forever in one workspace do not delay another workspace', async ({
    client,
    assert,
  }) => {
    const runaway = await publishedBot(client, 'while (true) {}')
    const quick = await publishedBot(client, 'setVariable("Answer", "fast")')

    const order: string[] = []
    const stalled = Array.from({ length: 6 }, async (_, i) => {
      const response = await client.post(`/api/v1/typebots/${runaway.publicId}/startChat`).json({})
      order.push(`A${i}`)
      return response
    })
    await untilInPool(6)
    assert.deepEqual(sandboxPool().stats().workspaces[runaway.workspaceId], {
      running: 1,
      waiting: 5,
    })

    const answer = await client.post(`/api/v1/typebots/${quick.publicId}/startChat`).json({})
    order.push('B')
    answer.assertStatus(200)
    assert.deepEqual(answer.body().messages.map(messageText), ['Answer fast'])
    assert.deepEqual(order, ['B'])

    // Ends the runaway runs: the chats of A answer, each with the Code block's error logged.
    await disposeSandbox()
    for (const response of await Promise.all(stalled)) response.assertStatus(200)
  })
})

test.group('Sandbox fairness | runner context', (group) => {
  group.each.setup(() => useSharedPool({ defaultTimeoutMs: 60_000 }))
  group.each.teardown(() => restoreSharedPool())

  test('Code blocks and {{= =}} expressions run under their own workspace', async ({ assert }) => {
    const stop = new AbortController()
    const order: string[] = []
    const runaways = Array.from({ length: 4 }, (_, i) =>
      runWithContext(
        async (ctx) => {
          await ctx.sandbox!.run('while (true) {}', {})
        },
        {
          plugin: probe,
          workspaceId: 'workspace-a',
          variables: [],
          options: {},
          signal: stop.signal,
        }
      ).then((output) => {
        order.push(`A${i}`)
        return output
      })
    )
    const expressionRunaway = runWithContext(async () => {}, {
      plugin: probe,
      workspaceId: 'workspace-a',
      variables: [],
      options: { text: '{{= (() => { while (true) {} })() =}}' },
      signal: stop.signal,
    })
    await untilInPool(5)
    assert.deepEqual(sandboxPool().stats().workspaces['workspace-a'], { running: 1, waiting: 4 })

    let computed: unknown
    const b = await runWithContext(
      async (ctx) => {
        computed = await ctx.sandbox!.run('return Count * 2', { Count: 21 })
      },
      {
        plugin: probe,
        workspaceId: 'workspace-b',
        variables: [{ id: 'v1', name: 'Count', value: 2 }],
        options: { text: 'Total {{= {{Count}} + 40 =}}' },
      }
    )
    order.push('B')
    assert.equal(b.options.text, 'Total 42')
    assert.equal(computed, 42)
    assert.deepEqual(order, ['B'])

    // The workflow or chat that stops gives its isolates back at once.
    stop.abort()
    const stopped = await Promise.all(runaways)
    for (const output of stopped) {
      assert.match(
        output.logs.map((log) => log.description).join(),
        /^AbortError: The script was cancelled (while it ran|before it started)$/
      )
    }
    // The one that held A's isolate (a Code block or the expression) ended too.
    await expressionRunaway
    assert.deepEqual(sandboxPool().stats().workspaces, {})
  })
})
