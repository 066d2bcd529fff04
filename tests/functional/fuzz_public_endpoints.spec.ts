import { test } from '@japa/runner'
import { gzipSync } from 'node:zlib'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { chatFixture } from '#tests/unit/engine/fixtures'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * 1,000 random and mutated bodies to every public endpoint: none may answer 500
 * (docs/security.md, "Request limits"). The generator is seeded (FUZZ_SEED to replay a run),
 * and a failure names the case's index, so any failure can be reproduced exactly.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_f00d)
const CASES = Number(process.env.FUZZ_CASES ?? 1000)
const serverUrl = () => `http://127.0.0.1:${process.env.PORT}`

/** mulberry32: small, fast and good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Random = ReturnType<typeof prng>
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]
const int = (random: Random, max: number) => Math.floor(random() * max)

const ALPHABET = Array.from('aZ0 -_.@{}[]":,\\/\n\t<>&\'é€😀\u0000\u2028')

function randomString(random: Random, length: number) {
  const alphabet = ALPHABET
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[int(random, alphabet.length)]
  return out
}

function randomValue(random: Random, depth = 0): unknown {
  switch (int(random, depth > 3 ? 6 : 8)) {
    case 0:
      return null
    case 1:
      return random() < 0.5
    case 2:
      return pick(random, [0, -1, 1e308, -1e-308, 2 ** 53 + 1, 0.1, 42])
    case 3:
      return randomString(random, int(random, 40))
    case 4:
      return ''
    case 5:
      return pick(random, ['https://example.com/a.png', 'javascript:alert(1)', '{{Name}}', 'x'])
    case 6:
      return Array.from({ length: int(random, 4) }, () => randomValue(random, depth + 1))
    default:
      return Object.fromEntries(
        Array.from({ length: int(random, 4) }, () => [
          pick(random, ['message', 'type', 'text', 'url', '__proto__', 'constructor', 'x']),
          randomValue(random, depth + 1),
        ])
      )
  }
}

/** A valid body of the endpoint's kind, then mutated. */
function validBody(random: Random, kind: Endpoint['kind']): Record<string, unknown> {
  switch (kind) {
    case 'start':
      return {
        message: 'hello',
        prefilledVariables: { Name: 'Ada' },
        isStreamEnabled: false,
        textBubbleContentFormat: 'richText',
        ...(random() < 0.3 ? { resultId: 'r1' } : {}),
      }
    case 'continue':
      return random() < 0.5
        ? { message: 'hi there' }
        : {
            message: { type: 'text', text: 'hi', attachedFileUrls: ['https://example.com/f.pdf'] },
            textBubbleContentFormat: 'markdown',
          }
    case 'stream':
      return { messages: [{ role: 'user', content: 'hi' }] }
    case 'signin':
      return { email: 'fuzz@example.com', name: 'Fuzz', redirectPath: '/bots' }
    default:
      return { id: 1, event: 'order.created', data: { items: [{ sku: 'a', qty: 2 }] } }
  }
}

function mutateObject(random: Random, body: Record<string, unknown>) {
  const keys = Object.keys(body)
  const copy: Record<string, unknown> = { ...body }
  const key = keys.length && random() < 0.8 ? pick(random, keys) : randomString(random, 8)
  copy[key] = randomValue(random)
  if (random() < 0.2) delete copy[pick(random, keys.length ? keys : ['x'])]
  return copy
}

interface Case {
  method: string
  contentType?: string
  encoding?: string
  body?: string | Buffer | FormData
  mutation: string
}

function nested(random: Random) {
  const depth = pick(random, [200, 255, 256, 257, 1000, 10_000, 50_000])
  const open = random() < 0.5 ? '[' : '{"a":'
  const close = open === '[' ? ']' : '}'
  const core = random() < 0.9 ? open.repeat(depth) + '1' + close.repeat(depth) : open.repeat(depth)
  return `{"message":${core}}`
}

function makeCase(random: Random, endpoint: Endpoint): Case {
  const base = validBody(random, endpoint.kind)
  const json = (value: unknown) => JSON.stringify(value)
  const mutation = pick(random, [
    'valid',
    'wrong types',
    'wrong types',
    'deep nesting',
    'huge string',
    'truncated',
    'invalid utf-8',
    'random bytes',
    'scalar',
    'content type',
    'gzip',
    'form',
    'multipart',
    'prototype keys',
    'empty',
  ] as const)
  const post = (body: string | Buffer, contentType = 'application/json'): Case => ({
    method: endpoint.methods ? pick(random, endpoint.methods) : 'POST',
    contentType,
    body,
    mutation,
  })
  switch (mutation) {
    case 'valid':
      return post(json(base))
    case 'wrong types':
      return post(json(mutateObject(random, mutateObject(random, base))))
    case 'deep nesting':
      return post(nested(random))
    case 'huge string': {
      const size = pick(random, [100_000, 999_000, 1_100_000, 3_000_000])
      return post(json({ ...base, message: 'x'.repeat(size) }))
    }
    case 'truncated': {
      const text = json(base)
      return post(text.slice(0, 1 + int(random, text.length - 1)))
    }
    case 'invalid utf-8': {
      const bytes = Buffer.from(json(base))
      const at = int(random, bytes.length)
      return post(
        Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xc3, 0x28]), bytes.subarray(at)])
      )
    }
    case 'random bytes':
      return post(
        Buffer.from(Array.from({ length: int(random, 200) }, () => int(random, 256))),
        pick(random, ['application/json', 'application/octet-stream', 'text/plain'])
      )
    case 'scalar':
      return post(pick(random, ['"x"', '1', 'null', 'true', '[]', '[1,2]', '{}']))
    case 'content type':
      return post(
        json(base),
        pick(random, [
          'text/plain',
          'application/xml',
          'application/json; charset=latin1',
          'application/vnd.api+json',
          'application/csp-report',
          'multipart/form-data',
          'multipart/form-data; boundary=x',
          '',
        ])
      )
    case 'gzip': {
      const valid = random() < 0.5
      return {
        ...post(valid ? gzipSync(json(base)) : Buffer.from(json(base))),
        encoding: pick(random, ['gzip', 'deflate', 'br', 'identity', 'compress']),
      }
    }
    case 'form': {
      const fields = Object.entries(mutateObject(random, base))
        .map(([k, v]) => `${encodeURIComponent(k)}[${'a]['.repeat(int(random, 30))}]=${v}`)
        .join('&')
      return post(fields, 'application/x-www-form-urlencoded')
    }
    case 'multipart': {
      const form = new FormData()
      form.append('a' + '[0]'.repeat(int(random, 5000)), String(randomValue(random)))
      if (random() < 0.5) {
        form.append('file', new Blob([randomString(random, 200)]), pick(random, ['a.txt', '']))
      }
      return { method: 'POST', body: form, mutation }
    }
    case 'prototype keys':
      return post(
        `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"\\u005f_proto__":{"y":1},"message":"hi"}`
      )
    default:
      return { method: endpoint.methods ? pick(random, endpoint.methods) : 'POST', mutation }
  }
}

interface Endpoint {
  path: string
  kind: 'start' | 'continue' | 'stream' | 'webhook' | 'signin'
  methods?: string[]
}

test.group('Fuzz: public endpoints', () => {
  test('1,000 random and mutated bodies: never a 500', async ({ assert }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    const token = (await new CreateApiToken().handle(owner, 'fuzz')).value
    const imported = await fetch(`${serverUrl()}/api/v1/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'authorization': `Bearer ${token}` },
      body: JSON.stringify({
        workspaceId: workspace.id,
        bot: { ...chatFixture('inputs').bot, id: undefined },
      }),
    })
    const botId = (await imported.json()).bot.id
    await fetch(`${serverUrl()}/api/v1/bots/${botId}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    const publicId = (await Bot.findOrFail(botId)).publicId!
    const started = await fetch(`${serverUrl()}/api/v1/typebots/${publicId}/startChat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    const sessionId = (await started.json()).sessionId
    assert.isString(sessionId)
    const workflow = await publishedWorkflow([
      { id: 'trigger', type: 'webhook-trigger' },
      { id: 'echo', type: 'workflow-script', options: { code: 'return input' } },
    ])

    const endpoints: Endpoint[] = [
      { path: `/api/v1/typebots/${publicId}/startChat`, kind: 'start' },
      { path: `/api/v1/bots/${publicId}/startChat`, kind: 'start' },
      { path: '/api/v1/typebots/no-such-bot/startChat', kind: 'start' },
      { path: `/api/v1/sessions/${sessionId}/continueChat`, kind: 'continue' },
      { path: '/api/v1/sessions/no-such-session/continueChat', kind: 'continue' },
      { path: `/api/v2/sessions/${sessionId}/streamMessage`, kind: 'stream' },
      { path: `/api/v1/sessions/${sessionId}/files`, kind: 'webhook' },
      { path: `/api/v1/typebots/${botId}/blocks/b1/results/r1/executeWebhook`, kind: 'webhook' },
      {
        path: `/api/v1/workflows/${workflow.id}/webhook`,
        kind: 'webhook',
        methods: ['GET', 'POST'],
      },
      { path: '/api/v1/workflows/nope/webhook', kind: 'webhook' },
      { path: `/api/v1/workflows/${workflow.id}/webhook/runs/nope`, kind: 'webhook' },
      { path: `/api/v1/workflows/${workflow.id}/events/trigger`, kind: 'webhook' },
      { path: '/api/v1/plugins/twilio/sessions/nope/turn', kind: 'webhook' },
      { path: '/signin', kind: 'signin' },
      { path: '/register', kind: 'signin' },
      { path: '/logout', kind: 'signin' },
      { path: `/${publicId}`, kind: 'webhook', methods: ['GET'] },
      { path: '/embed.js', kind: 'webhook', methods: ['GET'] },
    ]

    const random = prng(SEED)
    const failures: string[] = []
    const counts = new Map<number, number>()
    for (let index = 0; index < CASES; index++) {
      const endpoint = pick(random, endpoints)
      const made = makeCase(random, endpoint)
      const headers: Record<string, string> = {
        accept: pick(random, ['application/json', 'text/html', '*/*']),
      }
      if (made.contentType) headers['content-type'] = made.contentType
      if (made.encoding) headers['content-encoding'] = made.encoding
      const withBody = made.method !== 'GET' && made.method !== 'HEAD'
      let status: number
      try {
        const response = await fetch(serverUrl() + endpoint.path, {
          method: made.method,
          headers,
          body: withBody ? made.body : undefined,
          redirect: 'manual',
        })
        status = response.status
        await response.arrayBuffer()
      } catch (error) {
        failures.push(`#${index} ${made.method} ${endpoint.path} (${made.mutation}): ${error}`)
        continue
      }
      counts.set(status, (counts.get(status) ?? 0) + 1)
      if (status >= 500) {
        failures.push(`#${index} ${made.method} ${endpoint.path} (${made.mutation}): ${status}`)
      }
    }
    assert.deepEqual(failures, [], `seed ${SEED}`)
    // The run reached the routes, not only the refusals.
    assert.isAbove(counts.get(200) ?? 0, 20)
    assert.isAbove(counts.get(400) ?? 0, 20)
    assert.isAbove(counts.get(413) ?? 0, 5)
    // Still serving after all that.
    assert.equal((await fetch(`${serverUrl()}/health`)).status, 200)
  }).timeout(120_000)
})
