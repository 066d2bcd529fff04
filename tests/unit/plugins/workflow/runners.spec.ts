import { test } from '@japa/runner'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runNode } from '#plugins/testing/node_context'

/**
 * The action and flow nodes through the real runner context: the HTTP request against a
 * local node:http stand-in, the script in the isolated-vm sandbox. They run under the former
 * workflow ids (`workflow-http-request`, `workflow-script`...), which the registry folds into
 * the kept plugins: that is why they live here rather than beside the plugins.
 */

interface Received {
  method?: string
  url?: string
  headers: IncomingMessage['headers']
  body: string
}

test.group('Workflow node: HTTP request', (group) => {
  let server: Server
  let base = ''
  const received: Received[] = []

  group.setup(async () => {
    server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body })
        const path = new URL(request.url ?? '/', 'http://x').pathname
        if (path === '/missing') {
          response.writeHead(404, { 'content-type': 'application/json' })
          response.end('{"error":"not found"}')
        } else if (path === '/slow') {
          setTimeout(() => response.end('late'), 2500)
        } else if (path === '/text') {
          response.writeHead(200, { 'content-type': 'text/plain', 'x-answer': '42' })
          response.end('plain words')
        } else {
          response.writeHead(201, { 'content-type': 'application/json' })
          response.end(JSON.stringify({ ok: true, echoed: body ? JSON.parse(body) : null }))
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })

  group.each.setup(() => {
    received.length = 0
  })

  test('sends method, query, headers and a JSON body with references; outputs the answer', async ({
    assert,
  }) => {
    const { result, errors, logs } = await runNode(
      'workflow-http-request',
      {
        method: 'POST',
        url: `${base}/items`,
        query: [
          { key: 'q', value: '{{City}}' },
          { key: '', value: 'skipped' },
        ],
        headers: [{ key: 'Authorization', value: 'Bearer {{$input.token}}' }],
        body: '{ "city": "{{City}}", "id": {{$input.id}} }',
        timeout: 5,
      },
      {
        input: { token: 't0k', id: 7 },
        variables: [
          { id: 'v1', name: 'City', value: 'Lyon' },
          // What the executor adds for the references the options use.
          { id: '{{$input.token}}', name: '$input.token', value: 't0k' },
          { id: '{{$input.id}}', name: '$input.id', value: 7 },
        ],
      }
    )
    assert.deepEqual(errors, [])
    assert.equal(logs[0].status, 'success')
    assert.lengthOf(received, 1)
    assert.equal(received[0].method, 'POST')
    assert.equal(received[0].url, '/items?q=Lyon')
    assert.equal(received[0].headers.authorization, 'Bearer t0k')
    assert.equal(received[0].headers['content-type'], 'application/json')
    assert.deepEqual(JSON.parse(received[0].body), { city: 'Lyon', id: 7 })
    const output = result.output as any
    assert.equal(output.statusCode, 201)
    assert.equal(output.headers['content-type'], 'application/json')
    assert.deepEqual(output.body, { ok: true, echoed: { city: 'Lyon', id: 7 } })
  })

  test('GET sends no body; text answers stay text', async ({ assert }) => {
    const { result, errors } = await runNode('workflow-http-request', {
      method: 'GET',
      url: `${base}/text`,
      body: '{"ignored": true}',
    })
    assert.deepEqual(errors, [])
    assert.equal(received[0].body, '')
    assert.deepEqual(result.output, {
      statusCode: 200,
      headers: (result.output as any).headers,
      body: 'plain words',
    })
    assert.equal((result.output as any).headers['x-answer'], '42')
  })

  test('an error status fails the node unless told otherwise', async ({ assert }) => {
    const failing = await runNode('workflow-http-request', {
      method: 'GET',
      url: `${base}/missing`,
    })
    assert.deepEqual(failing.errors, [`HTTP request to ${new URL(base).host} returned 404`])
    assert.deepEqual((failing.result.output as any).body, { error: 'not found' })

    const tolerated = await runNode('workflow-http-request', {
      method: 'GET',
      url: `${base}/missing`,
      ignoreErrorStatus: true,
    })
    assert.deepEqual(tolerated.errors, [])
    assert.equal((tolerated.result.output as any).statusCode, 404)
  })

  test('bad URLs and timeouts fail the node', async ({ assert }) => {
    const empty = await runNode('workflow-http-request', { url: '' })
    assert.deepEqual(empty.errors, ['HTTP request: the URL is empty'])
    const invalid = await runNode('workflow-http-request', { url: 'not a url' })
    assert.deepEqual(invalid.errors, ['HTTP request: "not a url" is not a valid URL'])
    const slow = await runNode('workflow-http-request', {
      method: 'GET',
      url: `${base}/slow`,
      timeout: 1,
    })
    assert.lengthOf(slow.errors, 1)
    assert.match(slow.errors[0], /^HTTP request to 127\.0\.0\.1:\d+ failed: /)
  })
})

test.group('Workflow node: script', () => {
  test('the code sees input and variables; its return value is the output', async ({ assert }) => {
    const { result, errors, variablesSet } = await runNode(
      'workflow-script',
      {
        code: `
          setVariable('Total', input.items.reduce((sum, item) => sum + item.price, 0))
          return { count: input.items.length, currency: Currency }
        `,
      },
      {
        input: { items: [{ price: 2 }, { price: 3.5 }] },
        variables: [
          { id: 'v-total', name: 'Total' },
          { id: 'v-currency', name: 'Currency', value: 'EUR' },
        ],
      }
    )
    assert.deepEqual(errors, [])
    assert.deepEqual(result.output, { count: 2, currency: 'EUR' })
    assert.deepEqual(variablesSet, [{ id: 'v-total', value: 5.5 }])
  })

  test('no return gives null; errors and the memory limit fail the node', async ({ assert }) => {
    const nothing = await runNode('workflow-script', { code: 'const a = 1' })
    assert.isNull(nothing.result.output)

    const thrown = await runNode('workflow-script', { code: 'throw new TypeError("bad input")' })
    assert.deepEqual(thrown.errors, ['TypeError: bad input'])

    const greedy = await runNode('workflow-script', {
      code: 'const chunks = []; while (true) chunks.push(new Array(1e6).fill(Math.random()))',
    })
    assert.lengthOf(greedy.errors, 1)
    assert.match(greedy.errors[0], /^MemoryLimitError/)
  }).timeout(20_000)

  test('empty code passes the input on', async ({ assert }) => {
    const { result, errors } = await runNode('workflow-script', { code: '  ' }, { input: { a: 1 } })
    assert.deepEqual(errors, [])
    assert.isUndefined(result.output)
  })
})

test.group('Workflow node: set variable, wait', () => {
  test('set variable writes by id or name; an unknown variable fails', async ({ assert }) => {
    const variables = [
      { id: 'v1', name: 'Greeting' },
      { id: 'v2', name: 'Name', value: 'Ada' },
    ]
    const byId = await runNode(
      'workflow-set-variable',
      { variableId: 'v1', value: 'Hello {{Name}}' },
      { variables }
    )
    assert.deepEqual(byId.variablesSet, [{ id: 'v1', value: 'Hello Ada' }])
    assert.isUndefined(byId.result.output)
    const byName = await runNode(
      'workflow-set-variable',
      { variableId: 'Greeting', value: 'Hi' },
      { variables }
    )
    assert.deepEqual(byName.variablesSet, [{ id: 'v1', value: 'Hi' }])
    const unknown = await runNode(
      'workflow-set-variable',
      { variableId: 'Nope', value: 'x' },
      { variables }
    )
    assert.deepEqual(unknown.errors, ['Set variable: the variable "Nope" does not exist'])
  })

  test('wait: interval, specific time (UTC without offset), webhook', async ({ assert }) => {
    const before = Date.now()
    const interval = await runNode('workflow-wait', {
      resume: 'interval',
      amount: 2,
      unit: 'hours',
    })
    const resumeAt = Date.parse(interval.result.wait!.resumeAt!)
    assert.isAtLeast(resumeAt, before + 2 * 3_600_000)
    assert.isAtMost(resumeAt, Date.now() + 2 * 3_600_000)

    const seconds = await runNode(
      'workflow-wait',
      { resume: 'interval', amount: '{{Delay}}', unit: 'seconds' },
      {
        variables: [{ id: 'v', name: 'Delay', value: '30' }],
      }
    )
    assert.approximately(Date.parse(seconds.result.wait!.resumeAt!) - Date.now(), 30_000, 2000)

    const at = await runNode('workflow-wait', {
      resume: 'specificTime',
      dateTime: '2031-05-06T07:08',
    })
    assert.deepEqual(at.result.wait, { resumeAt: '2031-05-06T07:08:00.000Z' })
    const zoned = await runNode('workflow-wait', {
      resume: 'specificTime',
      dateTime: '2031-05-06T07:08:00+02:00',
    })
    assert.deepEqual(zoned.result.wait, { resumeAt: '2031-05-06T05:08:00.000Z' })

    const bad = await runNode('workflow-wait', { resume: 'specificTime', dateTime: 'soon' })
    assert.deepEqual(bad.errors, ['Wait: "soon" is not a date and time'])

    const hook = await runNode('workflow-wait', { resume: 'webhook' })
    assert.deepEqual(hook.result.wait, { webhook: true })
  })
})
