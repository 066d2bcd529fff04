import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateCredential } from '#actions/credentials/create_credential'
import { closeQueue, startWorkers } from '#queue/queue'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import type { N8nImportReportDto, N8nNodeImportLine } from '#shared/workflow/n8n_import'
import type { WorkflowBlock } from '#shared/workflow/types'
import {
  agentExport,
  approvalExport,
  callerExport,
  greetingExport,
  legacyExport,
  mergeExport,
  nightlyExport,
  routerExport,
  subWorkflowExport,
  userLookupExport,
  waitExport,
} from '#tests/n8n_exports'

/**
 * n8n workflow exports of different shapes (tests/n8n_exports.ts) imported through
 * POST /api/v1/workflows/import-n8n, their report checked, then published and run end to
 * end with the in-process queue and stand-ins (an HTTP server, an OpenAI-compatible one).
 */

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** An HTTP stand-in answering per path; it records what it received. */
async function startApi(routes: Record<string, (request: Received) => unknown>) {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body }
      received.push(request)
      const path = req.url!.split('?')[0]
      const route = Object.keys(routes).find((prefix) => path.startsWith(prefix))
      res.writeHead(route ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify(route ? routes[route](request) : { error: 'no route' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, received, close: () => new Promise<void>((r) => server.close(() => r())) }
}

async function owner() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `n8n-${Date.now()}-${Math.random()}`))
    .value
  return { user, workspace, token, workspaceId: workspace.id }
}

type Owner = Awaited<ReturnType<typeof owner>>

async function importN8n(client: ApiClient, who: Owner, workflow: unknown, save = true) {
  const response = await client
    .post('/api/v1/workflows/import-n8n')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, workflow, save })
  response.assertStatus(save ? 201 : 200)
  return response.body() as { report: N8nImportReportDto; workflowId?: string }
}

async function blocksOf(client: ApiClient, who: Owner, id: string): Promise<WorkflowBlock[]> {
  const response = await client.get(`/api/v1/workflows/${id}`).bearerToken(who.token)
  return response.body().workflow.blocks
}

async function goLive(client: ApiClient, who: Owner, id: string) {
  const published = await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)
  published.assertStatus(200)
  ;(await client.post(`/api/v1/workflows/${id}/activate`).bearerToken(who.token)).assertStatus(200)
}

async function waitForRun(
  client: ApiClient,
  token: string,
  runId: string,
  until = ['success', 'error', 'cancelled']
) {
  for (let i = 0; i < 150; i++) {
    const run = (await client.get(`/api/v1/runs/${runId}`).bearerToken(token)).body().run
    if (until.includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the run did not finish')
}

function line(report: N8nImportReportDto, name: string): N8nNodeImportLine {
  const found = report.nodes.find((node) => node.name === name)
  if (!found) throw new Error(`no report line for ${name}`)
  return found
}

test.group('n8n import', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('webhook, Edit Fields and Respond to Webhook answer the call as in n8n', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const preview = await importN8n(client, who, JSON.stringify(greetingExport()), false)
    assert.isUndefined(preview.workflowId, 'the preview saves nothing')
    assert.deepEqual(
      preview.report.nodes.map((node) => [node.name, node.type, node.status]),
      [
        ['Webhook', 'webhook-trigger', 'partial'],
        ['Build greeting', 'Code', 'mapped'],
        ['Respond', 'respond-to-webhook', 'mapped'],
      ]
    )
    assert.match(line(preview.report, 'Webhook').lost[0], /the path "greet"/)

    const { workflowId, report } = await importN8n(client, who, greetingExport())
    assert.deepEqual(report, preview.report, 'what was shown is what is saved')
    const blocks = await blocksOf(client, who, workflowId!)
    const fields = blocks.find((block) => block.title === 'Build greeting')!
    assert.equal(fields.notes, 'Builds the answer from the body')
    assert.deepEqual(fields.graphCoordinates, { x: 220, y: 0 })
    assert.equal(
      (blocks.find((block) => block.title === 'Respond')!.options as any).body,
      '{ "greeting": "{{$input.greeting}}", "letters": {{$input.length}} }'
    )

    await goLive(client, who, workflowId!)
    const answer = await client
      .post(`/api/v1/workflows/${workflowId}/webhook`)
      .json({ name: 'Ada' })
    answer.assertStatus(201)
    assert.deepEqual(answer.body(), { greeting: 'Hello Ada', letters: 3 })
  })

  test('an HTTP request reads its answer where n8n puts it, and a node by its name', async ({
    client,
    assert,
    cleanup,
  }) => {
    const api = await startApi({ '/users/': () => ({ name: 'Grace', team: 'compilers' }) })
    cleanup(api.close)
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, userLookupExport(api.base))
    assert.deepEqual(report.counts, { mapped: 2, partial: 1, placeholder: 0, credentials: 0 })
    assert.equal(line(report, 'Fetch user').type, 'Webhook', 'the HTTP request plugin')

    await goLive(client, who, workflowId!)
    const answer = await client
      .get(`/api/v1/workflows/${workflowId}/webhook`)
      .qs({ id: '7', caller: 'ops' })
    answer.assertStatus(200)
    assert.deepEqual(answer.body(), {
      user: { name: 'Grace', requestedBy: 'ops' },
      team: 'COMPILERS',
    })
    assert.equal(api.received[0].url, '/users/7?expand=team')
    assert.equal(api.received[0].headers['x-caller'], 'ops')
  })

  test('IF branches: each run takes the branch its data says', async ({ client, assert }) => {
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, approvalExport())
    assert.deepEqual(
      report.nodes.map((node) => [node.type, node.status]),
      [
        ['manual-trigger', 'mapped'],
        ['Condition', 'mapped'],
        ['Code', 'mapped'],
        ['Code', 'mapped'],
      ]
    )
    await goLive(client, who, workflowId!)
    for (const [amount, decision] of [
      [150, 'review'],
      [50, 'approved'],
    ] as const) {
      const started = await client
        .post(`/api/v1/workflows/${workflowId}/run`)
        .bearerToken(who.token)
        .json({ input: { amount } })
      started.assertStatus(202)
      const run = await waitForRun(client, who.token, started.body().runId)
      assert.equal(run.status, 'success')
      assert.deepEqual(run.output, { amount, decision })
    }
  })

  test('Switch rules and the fallback output lead to their own answers', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, routerExport())
    assert.equal(line(report, 'Route').status, 'mapped')
    await goLive(client, who, workflowId!)
    for (const [kind, status, text] of [
      ['order', 200, 'order order'],
      ['refund', 202, 'refund refund'],
      ['gift', 422, 'unknown gift'],
    ] as const) {
      const answer = await client.post(`/api/v1/workflows/${workflowId}/webhook`).json({ kind })
      answer.assertStatus(status)
      assert.equal(answer.text(), text)
    }
  })

  test('two requests side by side join in a Merge combining them by position', async ({
    client,
    assert,
    cleanup,
  }) => {
    const api = await startApi({
      '/profile/': () => ({ name: 'Linus', tier: 'gold' }),
      '/orders': (request) => ({ orders: 3, for: JSON.parse(request.body).customer }),
    })
    cleanup(api.close)
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, mergeExport(api.base))
    assert.equal(line(report, 'Merge').type, 'Code')
    assert.equal(line(report, 'Merge').status, 'mapped')
    await goLive(client, who, workflowId!)
    const answer = await client.post(`/api/v1/workflows/${workflowId}/webhook`).json({ id: 'c9' })
    answer.assertStatus(200)
    assert.deepEqual(answer.body(), { name: 'Linus', tier: 'gold', orders: 3, for: 'c9' })
    assert.sameMembers(
      api.received.map((request) => `${request.method} ${request.url}`),
      ['GET /profile/c9', 'POST /orders']
    )
  })

  test('a node without equivalent is kept disabled with its parameters; the run goes through it', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, nightlyExport())
    const airtable = line(report, 'Read table')
    assert.equal(airtable.status, 'placeholder')
    assert.equal(airtable.type, 'imported-node')
    assert.isTrue(airtable.disabled)
    assert.deepEqual(airtable.credentials, ['airtableTokenApi'])
    assert.equal(report.counts.credentials, 1)
    assert.includeMembers(report.workflow, [
      "1 sticky note(s): kept in the workflow's description",
      'The pinned test data of 1 node(s)',
    ])
    assert.notInclude(line(report, 'Every night').status, 'placeholder')

    const blocks = await blocksOf(client, who, workflowId!)
    const schedule = blocks.find((block) => block.title === 'Every night')!
    assert.deepEqual(schedule.options, { mode: 'daily', hour: 2, minute: 30 })
    const kept = blocks.find((block) => block.title === 'Read table')!
    assert.equal((kept.options as any).source, 'n8n: n8n-nodes-base.airtable v2.1')
    assert.deepEqual(JSON.parse((kept.options as any).parameters), {
      operation: 'search',
      base: { __rl: true, value: 'appXYZ', mode: 'id' },
    })
    assert.notInclude(JSON.stringify(blocks), 'Airtable account', 'credentials are not imported')
    const workflow = (
      await client.get(`/api/v1/workflows/${workflowId}`).bearerToken(who.token)
    ).body().workflow
    assert.include(workflow.description, 'Runs at 2:30')

    await goLive(client, who, workflowId!)
    const started = await client
      .post(`/api/v1/workflows/${workflowId}/run`)
      .bearerToken(who.token)
      .json({ input: { team: 'platform' } })
    const run = await waitForRun(client, who.token, started.body().runId)
    assert.equal(run.status, 'success')
    assert.equal(run.output.count, 1)
    assert.match(run.output.digest, /^Digest for /)
    assert.deepEqual(
      run.nodes.map((node: any) => node.status),
      ['success', 'skipped', 'success']
    )
  })

  test('a Wait resumed by a call goes on with that call and the first one', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, waitExport())
    assert.equal(line(report, 'Wait').status, 'mapped')
    await goLive(client, who, workflowId!)
    const accepted = await client
      .post(`/api/v1/workflows/${workflowId}/webhook`)
      .json({ question: 'Ship it?' })
    accepted.assertStatus(202)
    const runId = accepted.body().runId
    await waitForRun(client, who.token, runId, ['waiting'])
    const resumed = await client
      .post(`/api/v1/workflows/${workflowId}/webhook/runs/${runId}`)
      .json({ answer: 'yes' })
    assert.isBelow(resumed.status(), 300)
    const run = await waitForRun(client, who.token, runId)
    assert.equal(run.status, 'success')
    assert.deepEqual(run.output, { asked: 'Ship it?', answer: 'yes' })
  })

  test('an AI agent keeps its chat model as an attachment; credentials are picked again', async ({
    client,
    assert,
    cleanup,
  }) => {
    const openai = await startOpenAiStandIn({ apiKey: 'sk-n8n' })
    cleanup(() => openai.close())
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, agentExport())
    assert.equal(line(report, 'When chat message received').type, 'webhook-trigger')
    assert.equal(line(report, 'AI Agent').type, 'llm-agent')
    const model = line(report, 'OpenAI Chat Model')
    assert.equal(model.type, 'openai')
    assert.deepEqual(model.credentials, ['openAiApi'])
    assert.equal(line(report, 'Memory').status, 'placeholder')
    assert.equal(line(report, 'Calculator').status, 'placeholder')
    assert.isTrue(line(report, 'Log').disabled)
    assert.includeMembers(report.workflow, [
      'The ai_memory connection from "Memory" to "AI Agent"',
      'The ai_tool connection from "Calculator" to "AI Agent"',
    ])

    // The builder picks the credentials the import could not bring.
    const credential = await new CreateCredential().handle(who.user, who.workspace, {
      type: 'openai',
      name: 'OpenAI',
      data: { apiKey: 'sk-n8n', baseUrl: openai.baseUrl },
    })
    const workflow = (
      await client.get(`/api/v1/workflows/${workflowId}`).bearerToken(who.token)
    ).body().workflow
    const blocks = workflow.blocks.map((block: WorkflowBlock) =>
      block.title === 'OpenAI Chat Model'
        ? { ...block, options: { ...block.options, credentialsId: credential.id } }
        : block
    )
    assert.deepEqual(
      workflow.edges
        .filter((edge: any) => edge.isAttachment)
        .map((edge: any) => edge.attachmentName),
      ['model']
    )
    ;(
      await client.patch(`/api/v1/workflows/${workflowId}`).bearerToken(who.token).json({ blocks })
    ).assertStatus(200)

    await goLive(client, who, workflowId!)
    const answer = await client
      .post(`/api/v1/workflows/${workflowId}/webhook`)
      .json({ chatInput: 'my parcel is late', sessionId: 's1' })
    answer.assertStatus(200)
    assert.equal(answer.body().output, 'Echo: Customer says: my parcel is late')
    const sent = openai.requests.find((request) => request.path.endsWith('/chat/completions'))!
    assert.equal(sent.json.model, 'gpt-4o-mini')
    assert.equal(sent.json.messages[0].content, 'You are the support desk of Acme.')
  })

  test('legacy node versions (Cron, HTTP Request v1, IF v1, Set v2) convert and run', async ({
    client,
    assert,
    cleanup,
  }) => {
    let state = 'ok'
    const api = await startApi({ '/status': () => ({ state }) })
    cleanup(api.close)
    const who = await owner()
    const { workflowId, report } = await importN8n(client, who, legacyExport(api.base))
    assert.deepEqual(report.counts, { mapped: 5, partial: 0, placeholder: 0, credentials: 0 })
    const blocks = await blocksOf(client, who, workflowId!)
    assert.deepEqual(blocks[0].options, { mode: 'hourly', minute: 15 })
    await goLive(client, who, workflowId!)
    for (const [now, expected] of [
      ['ok', { health: 'green', code: 1 }],
      ['degraded', { health: 'red: degraded' }],
    ] as const) {
      state = now
      const started = await client
        .post(`/api/v1/workflows/${workflowId}/run`)
        .bearerToken(who.token)
        .json({ input: {} })
      const run = await waitForRun(client, who.token, started.body().runId)
      assert.equal(run.status, 'success')
      assert.deepEqual(run.output, expected)
    }
    assert.deepEqual(JSON.parse(api.received[0].body), { source: 'legacy' })
  })

  test('Execute Workflow calls the imported sub-workflow once the builder picks it', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const child = await importN8n(client, who, subWorkflowExport())
    assert.equal(line(child.report, 'When called').type, 'manual-trigger')
    await goLive(client, who, child.workflowId!)

    const caller = await importN8n(client, who, callerExport())
    const call = line(caller.report, 'Price with tax')
    assert.equal(call.type, 'execute-workflow')
    assert.equal(call.status, 'partial')
    assert.match(call.lost[0], /n8n id Abc123n8nId\): import it too and pick it/)

    const workflow = (
      await client.get(`/api/v1/workflows/${caller.workflowId}`).bearerToken(who.token)
    ).body().workflow
    const blocks = workflow.blocks.map((block: WorkflowBlock) =>
      block.type === 'execute-workflow'
        ? { ...block, options: { ...block.options, workflowId: child.workflowId } }
        : block
    )
    ;(
      await client
        .patch(`/api/v1/workflows/${caller.workflowId}`)
        .bearerToken(who.token)
        .json({ blocks })
    ).assertStatus(200)
    await goLive(client, who, caller.workflowId!)
    const started = await client
      .post(`/api/v1/workflows/${caller.workflowId}/run`)
      .bearerToken(who.token)
      .json({ input: { net: 50 } })
    const run = await waitForRun(client, who.token, started.body().runId)
    assert.equal(run.status, 'success')
    assert.deepEqual(run.output, { quote: 'Total: 60 EUR' })
  })

  test('a guest of the workspace cannot import', async ({ client, assert }) => {
    const who = await owner()
    const guest = await owner()
    await WorkspaceMember.create({
      workspaceId: who.workspaceId,
      userId: guest.user.id,
      role: 'GUEST',
    })
    const refused = await client
      .post('/api/v1/workflows/import-n8n')
      .bearerToken(guest.token)
      .json({ workspaceId: who.workspaceId, workflow: greetingExport() })
    refused.assertStatus(403)
    assert.equal(refused.body().description, 'Guests cannot create workflows.')
  })

  test('what is not an n8n workflow is refused; other workspaces are not found', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const refused = await client
      .post('/api/v1/workflows/import-n8n')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, workflow: '{"blocks": []}' })
    refused.assertStatus(422)
    assert.equal(refused.body().message, 'This is not an n8n workflow: it has no list of nodes')
    const notJson = await client
      .post('/api/v1/workflows/import-n8n')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, workflow: 'nodes: []' })
    notJson.assertStatus(422)

    const stranger = await owner()
    const elsewhere = await client
      .post('/api/v1/workflows/import-n8n')
      .bearerToken(stranger.token)
      .json({ workspaceId: who.workspaceId, workflow: greetingExport() })
    elsewhere.assertStatus(404)
  })
})
