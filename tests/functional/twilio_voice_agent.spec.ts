import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { createHmac } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import AiUsage from '#models/ai_usage'
import PluginSession from '#models/plugin_session'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { DateTime } from 'luxon'
import { newId } from '#services/ids'
import { prunePluginSessions } from '#services/plugin_session_retention'
import { createRun, executeRun } from '#services/workflows/run_workflow'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { storeCredential } from '#tests/helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { startTwilioStandIn } from '../../plugins/twilio/stand_in.js'

/**
 * The Twilio AI voice call end to end (plugins/twilio/README.md, "AI voice call"): a workflow
 * run places the call through a stand-in of Twilio's REST API, then the test plays Twilio,
 * posting signed webhook requests to the session's URLs, while a stand-in of an
 * OpenAI-compatible API answers; the run waits and goes on with the transcript.
 */

const SID = `AC${'0123456789abcdef'.repeat(2)}`
const TOKEN = 'twilio-auth-token'
const NUMBER = '+14155550100'
const CALLEE = '+33612345678'
const KEY = 'sk-voice'

/** What Twilio does (its webhook security page): HMAC-SHA1 of URL + sorted params, base64. */
function signAsTwilio(url: string, params: Record<string, string>, token = TOKEN) {
  const data = Object.keys(params)
    .sort()
    .reduce((signed, name) => signed + name + params[name], url)
  return createHmac('sha1', token).update(data).digest('base64')
}

async function setUp(options: Record<string, unknown> = {}) {
  const twilio = await startTwilioStandIn({ sid: SID, token: TOKEN, numbers: [NUMBER] })
  const ai = await startOpenAiStandIn({ apiKey: KEY })
  const twilioCredentialId = newId()
  const aiCredentialId = newId()
  const workflow = await publishedWorkflow([
    { id: 'trigger', type: 'manual-trigger' },
    {
      id: 'call',
      type: 'twilio',
      options: {
        action: 'AI voice call',
        credentialsId: twilioCredentialId,
        aiCredentialsId: aiCredentialId,
        to: CALLEE,
        greeting: 'Hi, this is Acme.',
        systemPrompt: "You are Acme's assistant.",
        model: 'voice-test-model',
        ...options,
      },
    },
    { id: 'after', type: 'workflow-script', options: { code: 'return input' } },
  ])
  const owner = { workspaceId: workflow.workspaceId, userId: workflow.user.id }
  await storeCredential(owner, {
    id: twilioCredentialId,
    type: 'twilio',
    data: { accountSid: SID, authToken: TOKEN, phoneNumber: NUMBER, baseUrl: twilio.baseUrl },
  })
  await storeCredential(owner, {
    id: aiCredentialId,
    type: 'openai',
    data: { apiKey: KEY, baseUrl: ai.baseUrl },
  })
  await db.from('users').where('id', workflow.user.id).update({ ai_credits: 10 })
  const runId = await createRun(workflow, 'manual', null)
  const outcome = await executeRun(runId)
  return { twilio, ai, workflow, runId, outcome }
}

/** Twilio's call: the form it posts, signed over the URL it was given. */
function twilioPost(
  client: ApiClient,
  url: string,
  params: Record<string, string>,
  signature = signAsTwilio(url, params)
) {
  return client.post(new URL(url).pathname).form(params).header('x-twilio-signature', signature)
}

const chatCalls = (ai: Awaited<ReturnType<typeof startOpenAiStandIn>>) =>
  ai.callsTo('/v1/chat/completions').map((request) => JSON.parse(request.body))

test.group('Twilio AI voice call', () => {
  test('a signed conversation: greeting, turns answered by the model, hang-up at the turn limit, transcript as the output', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { twilio, ai, workflow, runId, outcome } = await setUp({ maxConversationTurns: 2 })
    cleanup(() => twilio.close())
    cleanup(() => ai.close())
    assert.equal(outcome?.status, 'waiting')

    // The call is placed with the session's answer URL on the app's public URL.
    assert.lengthOf(twilio.requests, 1)
    const placed = Object.fromEntries(new URLSearchParams(twilio.requests[0].body))
    assert.equal(twilio.requests[0].path, `/2010-04-01/Accounts/${SID}/Calls.json`)
    assert.include(placed, {
      To: CALLEE,
      From: NUMBER,
      Method: 'POST',
      StatusCallbackMethod: 'POST',
      TimeLimit: '900',
    })
    const answerUrl = placed.Url
    assert.match(
      answerUrl,
      /^http:\/\/[^/]+\/api\/v1\/plugins\/twilio\/sessions\/[0-9a-f]{48}\/answer$/
    )
    assert.equal(placed.StatusCallback, answerUrl.replace(/answer$/, 'status'))
    const turnUrl = answerUrl.replace(/answer$/, 'turn')
    const sessionId = answerUrl.split('/').at(-2)!
    const session = await PluginSession.findOrFail(sessionId)
    assert.equal(session.status, 'open')
    assert.equal(session.runId, runId)
    const callSid = (session.state as any).callSid as string
    assert.match(callSid, /^CA[0-9a-f]{32}$/)

    const call = { AccountSid: SID, CallSid: callSid, From: NUMBER, To: CALLEE }

    // Not Twilio: no signature, a signature with another token, a signature of other params.
    const unsigned = await client
      .post(new URL(answerUrl).pathname)
      .form({ ...call, CallStatus: 'in-progress' })
    unsigned.assertStatus(403)
    const forged = await twilioPost(
      client,
      answerUrl,
      { ...call, CallStatus: 'in-progress' },
      signAsTwilio(answerUrl, { ...call, CallStatus: 'in-progress' }, 'another-token')
    )
    forged.assertStatus(403)
    const tampered = await twilioPost(
      client,
      turnUrl,
      { ...call, SpeechResult: 'Transfer all my money' },
      signAsTwilio(turnUrl, { ...call, SpeechResult: 'Hello' })
    )
    tampered.assertStatus(403)
    assert.lengthOf(chatCalls(ai), 0)

    // The callee picks up: the greeting, then a speech Gather posting to the turn URL.
    const answered = await twilioPost(client, answerUrl, { ...call, CallStatus: 'in-progress' })
    answered.assertStatus(200)
    assert.match(answered.header('content-type') ?? '', /^text\/xml/)
    assert.equal(
      answered.text(),
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say voice="alice" language="en-US">Hi, this is Acme.</Say>' +
        `<Gather input="speech" action="${turnUrl}" method="POST" language="en-US" timeout="10" speechTimeout="2" actionOnEmptyResult="true"></Gather>` +
        '</Response>'
    )

    // First answer: the model gets the system prompt and the conversation so far.
    const first = await twilioPost(client, turnUrl, {
      ...call,
      SpeechResult: 'When are you open?',
      Confidence: '0.92',
    })
    first.assertStatus(200)
    assert.include(
      first.text(),
      '<Say voice="alice" language="en-US">Echo: When are you open?</Say>'
    )
    assert.include(first.text(), `<Gather input="speech" action="${turnUrl}"`)
    assert.notInclude(first.text(), '<Hangup/>')
    const [firstAsk] = chatCalls(ai)
    assert.equal(firstAsk.model, 'voice-test-model')
    assert.equal(firstAsk.max_tokens, 150)
    assert.deepEqual(firstAsk.messages, [
      { role: 'system', content: "You are Acme's assistant." },
      { role: 'assistant', content: 'Hi, this is Acme.' },
      { role: 'user', content: 'When are you open?' },
    ])
    assert.equal(ai.callsTo('/v1/chat/completions')[0].headers.authorization, `Bearer ${KEY}`)

    // Silence: asked again, no model call.
    const silent = await twilioPost(client, turnUrl, { ...call })
    silent.assertStatus(200)
    assert.include(
      silent.text(),
      '<Say voice="alice" language="en-US">Sorry, I did not hear you. Could you say that again?</Say><Gather'
    )
    assert.lengthOf(chatCalls(ai), 1)

    // Second answer reaches maxConversationTurns (2): the reply, the farewell, hang up.
    const last = await twilioPost(client, turnUrl, { ...call, SpeechResult: 'And on Sunday?' })
    last.assertStatus(200)
    assert.equal(
      last.text(),
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say voice="alice" language="en-US">Echo: And on Sunday?</Say>' +
        '<Say voice="alice" language="en-US">Thank you for calling. Goodbye!</Say>' +
        '<Hangup/></Response>'
    )
    const asks = chatCalls(ai)
    assert.lengthOf(asks, 2)
    assert.deepEqual(asks[1].messages, [
      { role: 'system', content: "You are Acme's assistant." },
      { role: 'assistant', content: 'Hi, this is Acme.' },
      { role: 'user', content: 'When are you open?' },
      { role: 'assistant', content: 'Echo: When are you open?' },
      { role: 'user', content: 'And on Sunday?' },
    ])

    // The transcript is kept and the run went on with it as the node's output.
    const transcript = [
      { role: 'assistant', text: 'Hi, this is Acme.' },
      { role: 'caller', text: 'When are you open?' },
      { role: 'assistant', text: 'Echo: When are you open?' },
      { role: 'caller', text: 'And on Sunday?' },
      { role: 'assistant', text: 'Echo: And on Sunday?' },
      { role: 'assistant', text: 'Thank you for calling. Goodbye!' },
    ]
    await session.refresh()
    assert.equal(session.status, 'closed')
    assert.deepEqual((session.state as any).transcript, transcript)
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'success')
    const expected = {
      sid: callSid,
      to: CALLEE,
      from: NUMBER,
      status: 'completed',
      endedBy: 'turn limit',
      turns: 2,
      transcript,
    }
    assert.deepEqual(run.output, expected)
    const node = await WorkflowRunNode.query()
      .where('runId', runId)
      .where('nodeId', 'call')
      .firstOrFail()
    assert.equal(node.status, 'success')
    assert.deepEqual(node.output, expected)

    // Each model call was charged to the workflow owner's AI credits.
    const usage = await AiUsage.query().where('accountId', workflow.user.id)
    assert.lengthOf(usage, 2)
    assert.deepEqual(
      usage.map((row) => [row.source, row.model, row.inputTokens, row.outputTokens]),
      [
        ['twilio', 'voice-test-model', 12, 5],
        ['twilio', 'voice-test-model', 12, 5],
      ]
    )

    // The session is over: Twilio's closing status callback changes nothing.
    const after = await twilioPost(client, answerUrl.replace(/answer$/, 'status'), {
      ...call,
      CallStatus: 'completed',
    })
    after.assertStatus(404)
    assert.equal((await WorkflowRun.findOrFail(runId)).status, 'success')
  })

  test('the caller says goodbye, or stays silent past the retries: the call ends without the model', async ({
    assert,
    client,
    cleanup,
  }) => {
    const byeCall = await setUp()
    cleanup(() => byeCall.twilio.close())
    cleanup(() => byeCall.ai.close())
    const placed = Object.fromEntries(new URLSearchParams(byeCall.twilio.requests[0].body))
    const turnUrl = placed.Url.replace(/answer$/, 'turn')
    const sessionId = placed.Url.split('/').at(-2)!
    const callSid = ((await PluginSession.findOrFail(sessionId)).state as any).callSid
    const call = { AccountSid: SID, CallSid: callSid, From: NUMBER, To: CALLEE }
    ;(await twilioPost(client, placed.Url, { ...call, CallStatus: 'in-progress' })).assertStatus(
      200
    )
    const bye = await twilioPost(client, turnUrl, { ...call, SpeechResult: 'Okay, bye!' })
    assert.include(bye.text(), 'Thank you for calling. Goodbye!</Say><Hangup/>')
    assert.lengthOf(chatCalls(byeCall.ai), 0)
    const ended = await WorkflowRun.findOrFail(byeCall.runId)
    assert.equal(ended.status, 'success')
    assert.deepInclude(ended.output as any, { endedBy: 'caller', turns: 0 })

    const quiet = await setUp({ retries: 1, farewell: 'Bye for now.' })
    cleanup(() => quiet.twilio.close())
    cleanup(() => quiet.ai.close())
    const quietPlaced = Object.fromEntries(new URLSearchParams(quiet.twilio.requests[0].body))
    const quietTurn = quietPlaced.Url.replace(/answer$/, 'turn')
    const quietSid = (
      (await PluginSession.findOrFail(quietPlaced.Url.split('/').at(-2)!)).state as any
    ).callSid
    const quietCall = { AccountSid: SID, CallSid: quietSid, From: NUMBER, To: CALLEE }
    const once = await twilioPost(client, quietTurn, quietCall)
    assert.include(once.text(), '<Gather')
    const twice = await twilioPost(client, quietTurn, quietCall)
    assert.include(twice.text(), 'Bye for now.</Say><Hangup/>')
    assert.deepInclude((await WorkflowRun.findOrFail(quiet.runId)).output as any, {
      endedBy: 'silence',
    })
  })

  test('a call that ends before the conversation (busy) resumes the run with its status', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { twilio, ai, runId } = await setUp()
    cleanup(() => twilio.close())
    cleanup(() => ai.close())
    const placed = Object.fromEntries(new URLSearchParams(twilio.requests[0].body))
    const sessionId = placed.Url.split('/').at(-2)!
    const callSid = ((await PluginSession.findOrFail(sessionId)).state as any).callSid
    const call = { AccountSid: SID, CallSid: callSid, From: NUMBER, To: CALLEE }
    // Ringing is not the end.
    ;(
      await twilioPost(client, placed.StatusCallback, { ...call, CallStatus: 'ringing' })
    ).assertStatus(204)
    assert.equal((await WorkflowRun.findOrFail(runId)).status, 'waiting')
    // Another call's SID, even signed, is not this session's.
    const otherCall = { ...call, CallSid: `CA${'f'.repeat(32)}`, CallStatus: 'busy' }
    ;(await twilioPost(client, placed.StatusCallback, otherCall)).assertStatus(403)
    ;(
      await twilioPost(client, placed.StatusCallback, { ...call, CallStatus: 'busy' })
    ).assertStatus(204)
    const run = await WorkflowRun.findOrFail(runId)
    assert.equal(run.status, 'success')
    assert.deepEqual(run.output, {
      sid: callSid,
      to: CALLEE,
      from: NUMBER,
      status: 'busy',
      endedBy: 'hangup',
      turns: 0,
      transcript: [],
    })
  })

  test('credentials of another workspace fail the node before any call is placed', async ({
    assert,
    cleanup,
  }) => {
    const twilio = await startTwilioStandIn({ sid: SID, token: TOKEN, numbers: [NUMBER] })
    cleanup(() => twilio.close())
    const stranger = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }])
    const foreignAi = await storeCredential(
      { workspaceId: stranger.workspaceId, userId: stranger.user.id },
      { type: 'openai', data: { apiKey: KEY } }
    )
    const twilioCredentialId = newId()
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'manual-trigger' },
      {
        id: 'call',
        type: 'twilio',
        options: {
          action: 'AI voice call',
          credentialsId: twilioCredentialId,
          aiCredentialsId: foreignAi.id,
          to: CALLEE,
          greeting: 'Hello',
        },
      },
    ])
    await storeCredential(
      { workspaceId: workflow.workspaceId, userId: workflow.user.id },
      {
        id: twilioCredentialId,
        type: 'twilio',
        data: { accountSid: SID, authToken: TOKEN, phoneNumber: NUMBER, baseUrl: twilio.baseUrl },
      }
    )
    const runId = await createRun(workflow, 'manual', null)
    const outcome = await executeRun(runId)
    assert.equal(outcome?.status, 'error')
    assert.include(
      String((await WorkflowRun.findOrFail(runId)).error),
      'Twilio: the selected credentials were not found'
    )
    assert.lengthOf(twilio.requests, 0)
    assert.equal(
      await PluginSession.query()
        .where('workspaceId', workflow.workspaceId)
        .count('* as n')
        .then((r) => Number(r[0].$extras.n)),
      0
    )
  })

  test('sessions a day past their expiry are deleted; live ones stay', async ({ assert }) => {
    const { workspaceId } = await publishedWorkflow([{ id: 'trigger', type: 'manual-trigger' }])
    const row = (id: string, expiresAt: DateTime) =>
      PluginSession.create({
        id,
        pluginId: 'twilio',
        workspaceId,
        ownerId: null,
        runId: null,
        nodeId: null,
        status: 'open',
        state: {},
        expiresAt,
      })
    await row(`old${newId()}`, DateTime.now().minus({ days: 2 }))
    const recent = await row(`recent${newId()}`, DateTime.now().minus({ hours: 2 }))
    const live = await row(`live${newId()}`, DateTime.now().plus({ hours: 1 }))
    assert.isAtLeast(await prunePluginSessions(), 1)
    const left = await PluginSession.query().where('workspaceId', workspaceId)
    assert.sameMembers(
      left.map((session) => session.id),
      [recent.id, live.id]
    )
  })
})
