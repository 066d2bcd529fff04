import { test } from '@japa/runner'
import { runPluginTest, sendJson, startStandIn } from '#sdk/testing'
import { test as testCredentials } from './credentials.js'
import plugin from './index.js'

const folder = new URL('./', import.meta.url)
const ANSWER = { query: 'Paris', results: [{ name: 'Paris', temperature: 12 }] }

/** What the stand-in saw of each call. */
interface SearchCall {
  path: string
  query: string | null
  authorization?: string
}

/** A local stand-in of the service: answers /v1/search, refuses a wrong key and "fail". */
async function startService() {
  return startStandIn<SearchCall>(
    ({ res, url, req }) => {
      if (req.headers.authorization !== 'Bearer test-key') {
        return sendJson(res, 401, { error: 'unauthorized' })
      }
      if (url.searchParams.get('q') === 'fail') return sendJson(res, 500, { error: 'boom' })
      sendJson(res, 200, { ...ANSWER, query: url.searchParams.get('q') })
    },
    {
      record: ({ req, url }) => ({
        path: url.pathname,
        query: url.searchParams.get('q'),
        authorization: req.headers.authorization,
      }),
    }
  )
}

test.group('Plugin scaffold-check-11767', (group) => {
  let service: Awaited<ReturnType<typeof startService>>
  group.each.setup(async () => {
    service = await startService()
    return () => service.close()
  })

  test('in a bot: saves the answer in the variable', async ({ assert }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'bot',
      options: { query: 'Paris', saveResultInVariableId: 'v1' },
      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },
      variables: [{ id: 'v1', name: 'answer' }],
    })
    assert.deepEqual(outcome.errors, [])
    assert.deepEqual(outcome.variablesSet, [{ id: 'v1', value: JSON.stringify(ANSWER) }])
    assert.equal(service.requests[0].path, '/v1/search')
    assert.equal(service.requests[0].query, 'Paris')
    assert.equal(service.requests[0].authorization, 'Bearer test-key')
  })

  test('in a workflow: the answer is the node output', async ({ assert }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { query: 'Paris', saveResultInVariableId: 'v1' },
      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },
      variables: [{ id: 'v1', name: 'answer' }],
    })
    assert.deepEqual(outcome.errors, [])
    assert.deepEqual(outcome.output, ANSWER)
    assert.equal(service.requests[0].path, '/v1/search')
    assert.equal(service.requests[0].query, 'Paris')
    assert.equal(service.requests[0].authorization, 'Bearer test-key')
  })

  test('a refused call is an error log and saves nothing', async ({ assert }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'bot',
      options: { query: 'fail', saveResultInVariableId: 'v1' },
      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },
      variables: [{ id: 'v1', name: 'answer' }],
    })
    assert.deepEqual(outcome.errors, [`${plugin.name}: the service answered 500`])
    assert.deepEqual(outcome.variablesSet, [])
  })

  test('the credential check accepts the key and refuses a wrong one', async ({ assert }) => {
    const http = { request: (url: string | URL, init?: RequestInit) => fetch(url, init) }
    const signal = AbortSignal.timeout(5000)
    const good = await testCredentials({
      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },
      http,
      signal,
    })
    assert.isTrue(good.ok)
    const bad = await testCredentials({
      credentials: { apiKey: 'wrong', baseUrl: service.baseUrl },
      http,
      signal,
    })
    assert.deepEqual(bad, { ok: false, message: 'The API key was refused (401).' })
  })
})
