import { test } from '@japa/runner'
import { runPluginTest } from '#sdk/testing'
import { startTwilioStandIn } from './stand_in.js'

/** The Twilio node against a stand-in of Twilio's REST API (stand_in.ts). */
const folder = new URL('./', import.meta.url)
const SID = `AC${'0123456789abcdef'.repeat(2)}`
const TOKEN = 'auth-token-1'
const NUMBER = '+14155550100'

async function twilio() {
  const service = await startTwilioStandIn({ sid: SID, token: TOKEN, numbers: [NUMBER] })
  const credentials = {
    accountSid: SID,
    authToken: TOKEN,
    phoneNumber: NUMBER,
    baseUrl: service.baseUrl,
  }
  return { service, credentials }
}

const basic = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`

test.group('Plugin twilio', () => {
  test('Send SMS posts To, From (the account number) and Body with Basic auth', async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await twilio()
    cleanup(() => service.close())
    const run = await runPluginTest({
      folder,
      surface: 'workflow',
      action: 'Send SMS',
      credentials,
      options: { to: '{{Phone}}', body: 'Your order {{Order}} has shipped' },
      variables: [
        { id: 'v1', name: 'Phone', value: '+33612345678' },
        { id: 'v2', name: 'Order', value: '#42' },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.lengthOf(service.requests, 1)
    const [request] = service.requests
    assert.equal(request.method, 'POST')
    assert.equal(request.path, `/2010-04-01/Accounts/${SID}/Messages.json`)
    assert.equal(request.headers.authorization, basic)
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded')
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
      To: '+33612345678',
      From: NUMBER,
      Body: 'Your order #42 has shipped',
    })
    assert.match((run.output as any).sid, /^SM[0-9a-f]{32}$/)
    assert.deepInclude(run.output as any, { status: 'queued', to: '+33612345678', from: NUMBER })
  })

  test("Make a call: the voice agent's defaults in the TwiML and the time limit", async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await twilio()
    cleanup(() => service.close())
    const run = await runPluginTest({
      folder,
      surface: 'workflow',
      action: 'Make a call',
      credentials,
      options: {
        to: '+33612345678',
        message: 'Hello, is 3 pm fine for your delivery?',
        answerUrl: 'https://flow.example.com/api/v1/workflows/w1/webhook',
      },
    })
    assert.deepEqual(run.errors, [])
    const params = Object.fromEntries(new URLSearchParams(service.requests[0].body))
    assert.equal(service.requests[0].path, `/2010-04-01/Accounts/${SID}/Calls.json`)
    assert.equal(params.To, '+33612345678')
    assert.equal(params.From, NUMBER)
    assert.equal(params.TimeLimit, String(15 * 60))
    const gather =
      '<Gather input="speech" language="en-US" timeout="10" speechTimeout="2"' +
      ' action="https://flow.example.com/api/v1/workflows/w1/webhook" method="POST">' +
      '<Say voice="alice" language="en-US">Hello, is 3 pm fine for your delivery?</Say></Gather>'
    assert.equal(
      params.Twiml,
      `<?xml version="1.0" encoding="UTF-8"?><Response>${gather.repeat(4)}<Hangup/></Response>`
    )
    assert.match((run.output as any).sid, /^CA[0-9a-f]{32}$/)
  })

  test('a call without answer URL only speaks; options override the defaults; text is escaped', async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await twilio()
    cleanup(() => service.close())
    await runPluginTest({
      folder,
      surface: 'workflow',
      action: 'Make a call',
      credentials,
      options: {
        to: '+33612345678',
        from: NUMBER,
        message: 'Tom & Jerry <3',
        voice: 'Polly.Celine',
        language: 'fr-FR',
        timeout: 2,
      },
    })
    const params = Object.fromEntries(new URLSearchParams(service.requests[0].body))
    assert.equal(params.TimeLimit, '120')
    assert.equal(
      params.Twiml,
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="Polly.Celine" language="fr-FR">Tom &amp; Jerry &lt;3</Say><Hangup/></Response>'
    )
  })

  test("Twilio's refusals fail the node with its message; the credential test", async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await twilio()
    cleanup(() => service.close())
    const refused = await runPluginTest({
      folder,
      surface: 'workflow',
      action: 'Send SMS',
      credentials,
      options: { to: '+33612345678', from: '+14155550999', body: 'Hi' },
    }).catch((error: Error) => error)
    const message = refused instanceof Error ? refused.message : refused.errors.join()
    assert.include(message, 'Twilio refused the request: The From phone number +14155550999')

    const { test: check } = await import('./credentials.js')
    const http = { request: (url: string | URL, init?: RequestInit) => fetch(url, init) }
    assert.deepEqual(await check({ credentials, http } as any), {
      ok: true,
      message: 'Connected to Test account.',
    })
    assert.deepEqual(
      await check({ credentials: { ...credentials, authToken: 'wrong' }, http } as any),
      {
        ok: false,
        message: 'Twilio refused the account SID or the auth token.',
      }
    )
  })
})
