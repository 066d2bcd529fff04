import { test } from '@japa/runner'
import { gzipSync } from 'node:zlib'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { MAX_BODY_DEPTH, exceedsDepth } from '#services/request_limits'

/**
 * Bodies are checked for size and nesting before they are parsed (docs/security.md,
 * "Request limits"): `{"x":[[[...10,000 levels...]]]}` once answered 500 on every JSON
 * endpoint (the framework deep-clones a parsed body, recursively).
 */
const serverUrl = () => `http://127.0.0.1:${process.env.PORT}`
const nested = (levels: number) => `{"x":${'['.repeat(levels)}${']'.repeat(levels)}}`

async function send(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = 'POST'
) {
  const response = await fetch(serverUrl() + path, {
    method,
    headers: { 'content-type': 'application/json', 'accept': 'application/json', ...headers },
    body,
  })
  const text = await response.text()
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, text, json, type: response.headers.get('content-type') }
}

test.group('Request limits', () => {
  test('the depth scan ignores brackets inside strings and escapes', ({ assert }) => {
    assert.isFalse(exceedsDepth(nested(MAX_BODY_DEPTH - 1)))
    assert.isTrue(exceedsDepth(nested(MAX_BODY_DEPTH)))
    assert.isFalse(exceedsDepth(JSON.stringify({ text: '['.repeat(5000) })))
    assert.isFalse(exceedsDepth(JSON.stringify({ text: '\\"' + '{'.repeat(5000) })))
    assert.isTrue(exceedsDepth(`{"a":"\\\\",${'['.repeat(300)}`))
  })

  test('deeply nested JSON answers 400 on public, signed-in and token endpoints', async ({
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, 'limits')).value
    const deep = nested(10_000)
    const endpoints: [string, Record<string, string>][] = [
      ['/api/v1/typebots/some-bot/startChat', {}],
      ['/api/v1/bots/some-bot/startChat', {}],
      ['/api/v1/sessions/some-session/continueChat', {}],
      ['/api/v2/sessions/some-session/streamMessage', {}],
      ['/api/v1/workflows/some-workflow/webhook', {}],
      ['/api/v1/workflows/some-workflow/events/node', {}],
      ['/api/v1/typebots/b/blocks/k/results/r/executeWebhook', {}],
      ['/signin', {}],
      ['/api/v1/bots', { authorization: `Bearer ${token}` }],
      [`/api/v1/bots/${workspace.id}/publish`, { authorization: `Bearer ${token}` }],
      ['/logout', {}],
    ]
    for (const [path, headers] of endpoints) {
      const reply = await send(path, deep, headers)
      assert.equal(reply.status, 400, `${path}: ${reply.text.slice(0, 200)}`)
      assert.equal(reply.json?.code, 'E_BODY_TOO_DEEP', path)
      assert.match(reply.json.message, /nested too deeply/)
    }

    // Compressed, the same body is as refused (the limit applies to what is decoded).
    const gz = await send('/api/v1/typebots/some-bot/startChat', gzipSync(deep), {
      'content-encoding': 'gzip',
    })
    assert.equal(gz.status, 400)
    assert.equal(gz.json.code, 'E_BODY_TOO_DEEP')

    // Just under the limit is parsed, and the route answers as it would (no such bot).
    const fine = await send('/api/v1/typebots/no-such-bot/startChat', nested(MAX_BODY_DEPTH - 1))
    assert.equal(fine.status, 404)
  })

  test('an HTML caller gets a short page, not a stack', async ({ assert }) => {
    const reply = await send('/signin', nested(10_000), { accept: 'text/html' })
    assert.equal(reply.status, 400)
    assert.match(reply.type ?? '', /text\/html/)
    assert.include(reply.text, 'Request body is nested too deeply')
  })

  test('an oversized body answers 413 before it is read, compressed or not', async ({ assert }) => {
    const big = JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) })
    const plain = await send('/api/v1/typebots/some-bot/startChat', big)
    assert.equal(plain.status, 413)
    assert.equal(plain.json.code, 'E_REQUEST_ENTITY_TOO_LARGE')
    const gz = await send('/api/v1/typebots/some-bot/startChat', gzipSync(big), {
      'content-encoding': 'gzip',
    })
    assert.equal(gz.status, 413)
    const unknown = await send('/api/v1/typebots/some-bot/startChat', '{}', {
      'content-encoding': 'zstd-ish',
    })
    assert.equal(unknown.status, 415)
  })

  test('malformed JSON, a scalar body and prototype keys', async ({ assert }) => {
    const truncated = await send('/api/v1/typebots/some-bot/startChat', '{"message": ')
    assert.equal(truncated.status, 400)
    assert.equal(truncated.json.code, 'E_INVALID_JSON')
    const scalar = await send('/api/v1/typebots/some-bot/startChat', '"hello"')
    assert.equal(scalar.status, 400)
    assert.equal(scalar.json.code, 'E_INVALID_JSON')
    const poisoned = await send(
      '/api/v1/typebots/no-such-bot/startChat',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'
    )
    assert.equal(poisoned.status, 404)
    assert.isUndefined(({} as any).polluted)
  })

  test('a multipart field name nested past the stack answers 400', async ({ assert }) => {
    const form = new FormData()
    form.append('a' + '[0]'.repeat(20_000), 'x')
    const response = await fetch(serverUrl() + '/api/v1/sessions/some-session/files', {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form,
    })
    assert.equal(response.status, 400, await response.clone().text())
    assert.equal((await response.json()).code, 'E_BODY_TOO_DEEP')
  })
})
