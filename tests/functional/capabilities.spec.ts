import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import WorkflowRun from '#models/workflow_run'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { resetPluginSettings } from '#services/marketplace'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { messageText } from '#engine/bot/engine'
import { chatFixture } from '#tests/unit/engine/fixtures'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { startAppProcess, type AppProcess } from '#tests/functional/app_process'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type { PlanName } from '#shared/plans'
import type { ChatMessage } from '#shared/chat/types'

/**
 * One capability service (docs/architecture.md, "Capabilities"): a plugin switched off
 * through the admin endpoint is refused by the next editor load, bot turn and workflow
 * run, in this process and in another one, although each had just cached the switches.
 */

const GREETING = 'Hello! What is your name?'

async function switchPlugin(
  client: ApiClient,
  pluginId: string,
  enabled: boolean,
  plan: PlanName = 'FREE'
) {
  const { user: admin } = await new FindOrCreateUser().handle('admin@example.com')
  const response = await client
    .post(`/admin/plugins/${encodeURIComponent(pluginId)}/plans/${plan}`)
    .json({ enabled })
    .loginAs(admin)
    .withCsrfToken()
    .redirects(0)
  response.assertStatus(302)
}

/** A FREE owner's greeting bot, published; returns its public id. */
async function greetingBot(client: ApiClient) {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `cap-${Date.now()}`)).value
  const raw = chatFixture('greeting').bot
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: { ...raw, id: undefined, publicId: undefined } })
  imported.assertStatus(201)
  const id = imported.body().bot.id
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
  return { user, workspace, publicId: (await Bot.findOrFail(id)).publicId! }
}

/** A new chat's session in another process, and its answer to `message` there. */
async function chatIn(app: AppProcess, publicId: string) {
  const started = await fetch(`${app.url}/api/v1/typebots/${publicId}/startChat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  const { sessionId, messages } = (await started.json()) as {
    sessionId: string
    messages: ChatMessage[]
  }
  return {
    opening: messages.map(messageText),
    async answer(message: string) {
      const reply = await fetch(`${app.url}/api/v1/sessions/${sessionId}/continueChat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      })
      const body = (await reply.json()) as { messages: ChatMessage[] }
      return body.messages.map(messageText)
    },
  }
}

/** The opening messages of a new chat, served by the test server or by another process. */
async function firstMessages(publicId: string, client: ApiClient | AppProcess) {
  if (!('url' in client)) {
    const response = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    response.assertStatus(200)
    return (response.body().messages as ChatMessage[]).map(messageText)
  }
  const response = await fetch(`${client.url}/api/v1/typebots/${publicId}/startChat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  const body = (await response.json()) as { messages: ChatMessage[] }
  return body.messages.map(messageText)
}

async function runOnce(workflow: Awaited<ReturnType<typeof publishedWorkflow>>) {
  const runId = await createRun(workflow, 'manual', {})
  await executeRun(runId)
  return WorkflowRun.findOrFail(runId)
}

test.group('Capabilities: admin changes take effect at once', (group) => {
  group.each.teardown(() => resetPluginSettings())

  test('the next editor load, bot turn and workflow run see a switch made by an admin', async ({
    client,
    assert,
  }) => {
    const { user, workspace, publicId } = await greetingBot(client)
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      { id: 'script', type: 'workflow-script', options: { code: 'return { ok: true }' } },
    ])
    const editorLists = async () => {
      const response = await client.get(`/api/v1/plugins?workspaceId=${workspace.id}`).loginAs(user)
      response.assertStatus(200)
      return new Map<string, any>(response.body().plugins.map((p: any) => [p.id, p]))
    }

    // Every path reads (and caches) the switches first.
    assert.isFalse((await editorLists()).get('text').locked)
    assert.include(await firstMessages(publicId, client), GREETING)
    assert.equal((await runOnce(workflow)).status, 'success')

    await switchPlugin(client, 'text', false)
    await switchPlugin(client, 'workflow-script', false)

    assert.isTrue((await editorLists()).get('text').locked)
    assert.notInclude(await firstMessages(publicId, client), GREETING)
    const refused = await runOnce(workflow)
    assert.equal(refused.status, 'error')
    assert.include(JSON.stringify(refused.error), 'not enabled on this workspace')

    await switchPlugin(client, 'text', true)
    assert.include(await firstMessages(publicId, client), GREETING)
  }).timeout(60_000)
})

test.group('Capabilities: across processes', (group) => {
  let app: AppProcess
  group.setup(async () => {
    app = await startAppProcess({})
    return () => app.stop()
  })
  group.each.teardown(() => resetPluginSettings())

  test('a bot turn served by another process sees the switch at once', async ({
    client,
    assert,
  }) => {
    const { publicId } = await greetingBot(client)
    assert.include(await firstMessages(publicId, app), GREETING)

    await switchPlugin(client, 'text', false)
    assert.notInclude(await firstMessages(publicId, app), GREETING)

    await switchPlugin(client, 'text', true)
    assert.include(await firstMessages(publicId, app), GREETING)
  }).timeout(90_000)

  test('a chat under way in another process sees a switch at its next answer', async ({
    client,
    assert,
  }) => {
    const { publicId } = await greetingBot(client)
    // Both chats' first turns cache the switches in the other process.
    const refused = await chatIn(app, publicId)
    const served = await chatIn(app, publicId)
    assert.include(refused.opening, GREETING)

    await switchPlugin(client, 'text', false)
    assert.notInclude(await refused.answer('Ada'), 'Nice to meet you Ada.')

    await switchPlugin(client, 'text', true)
    assert.include(await served.answer('Ada'), 'Nice to meet you Ada.')
  }).timeout(90_000)

  test("the bot owner's plan change reaches a chat under way in another process", async ({
    client,
    assert,
  }) => {
    const { user, publicId } = await greetingBot(client)
    await setUserPlan(user, 'STANDARD')
    // Text bubbles are off on FREE only: the owner's plan decides.
    await switchPlugin(client, 'text', false, 'FREE')
    const downgraded = await chatIn(app, publicId)
    const upgraded = await chatIn(app, publicId)
    assert.include(downgraded.opening, GREETING)

    await setUserPlan(user, 'FREE')
    assert.notInclude(await downgraded.answer('Ada'), 'Nice to meet you Ada.')
    assert.notInclude(await firstMessages(publicId, app), GREETING)

    await setUserPlan(user, 'STANDARD')
    assert.include(await upgraded.answer('Ada'), 'Nice to meet you Ada.')
  }).timeout(90_000)
})
