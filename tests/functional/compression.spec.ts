import { test } from '@japa/runner'
import { request as httpRequest } from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { precompressedAsset, preferredEncoding } from '#services/http_compression'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Compression of the app's answers (docs/architecture.md, "Compression and caching"), read
 * off the wire with node:http: clients that decompress by themselves would hide it.
 */

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<Raw>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(process.env.PORT), path, method, headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) })
        )
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

function decoded(response: Raw) {
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(response.body).toString('utf8')
  if (encoding === 'gzip') return gunzipSync(response.body).toString('utf8')
  return response.body.toString('utf8')
}

async function publishedBot() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `compression-${Date.now()}`)).value
  const longText = 'A sentence that repeats, as a long welcome message does. '.repeat(60)
  const bot = {
    version: '6',
    name: 'Compressed',
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          {
            id: 'b1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: longText }] }] },
          },
          { id: 'b2', type: 'text input', options: {} },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings: {},
  }
  const auth = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
  const created = await raw(
    '/api/v1/bots',
    auth,
    'POST',
    JSON.stringify({ workspaceId: workspace.id, bot })
  )
  const id = JSON.parse(decoded(created)).bot.id
  await raw(`/api/v1/bots/${id}/publish`, auth, 'POST')
  return { publicId: (await Bot.findOrFail(id)).publicId!, longText }
}

test.group('Compression', () => {
  test('pages, JSON and /embed.js come compressed as the client accepts, brotli first', async ({
    assert,
  }) => {
    const { publicId, longText } = await publishedBot()
    // Chromium's header: gzip listed first, brotli still preferred.
    const page = await raw(`/${publicId}`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    assert.equal(page.status, 200)
    assert.equal(page.headers['content-encoding'], 'br')
    assert.include(String(page.headers['vary']), 'Accept-Encoding')
    assert.equal(Number(page.headers['content-length']), page.body.length)
    assert.include(decoded(page), 'id="viewer-props"')
    assert.notExists(page.headers['set-cookie'], 'a visitor gets no cookie')

    const gzip = await raw(`/${publicId}`, { 'accept-encoding': 'gzip' })
    assert.equal(gzip.headers['content-encoding'], 'gzip')
    assert.equal(decoded(gzip), decoded(page))
    const plain = await raw(`/${publicId}`)
    assert.notExists(plain.headers['content-encoding'])
    assert.equal(plain.body.toString('utf8'), decoded(page))
    const refused = await raw(`/${publicId}`, { 'accept-encoding': 'br;q=0, gzip;q=0' })
    assert.notExists(refused.headers['content-encoding'])

    const start = await raw(
      `/api/v1/typebots/${publicId}/startChat`,
      { 'accept-encoding': 'br, gzip', 'content-type': 'application/json' },
      'POST',
      '{}'
    )
    assert.equal(start.status, 200)
    assert.equal(start.headers['content-encoding'], 'br')
    assert.isBelow(start.body.length, longText.length / 4)
    assert.include(decoded(start), longText.trim())

    const embed = await raw('/embed.js', { 'accept-encoding': 'gzip, br' })
    assert.equal(embed.headers['content-encoding'], 'br')
    assert.include(decoded(embed), 'Flowcraft')
    const typebot = await raw('/typebot/web.js', { 'accept-encoding': 'gzip' })
    assert.equal(typebot.headers['content-encoding'], 'gzip')
    assert.equal(typebot.headers['access-control-allow-origin'], '*')
    assert.match(decoded(typebot), /export\s*\{[^}]*default/)
  })

  test('small answers and HEAD requests are sent as they are', async ({ assert }) => {
    const health = await raw('/health', { 'accept-encoding': 'br, gzip' })
    assert.equal(health.status, 200)
    assert.isBelow(health.body.length, 1024)
    assert.notExists(health.headers['content-encoding'])
    const head = await raw('/embed.js', { 'accept-encoding': 'br' }, 'HEAD')
    assert.equal(head.status, 200)
    assert.notExists(head.headers['content-encoding'])
  })

  test('Accept-Encoding: brotli first at equal weight, weights and refusals respected', ({
    assert,
  }) => {
    assert.equal(preferredEncoding('gzip, deflate, br'), 'br')
    assert.equal(preferredEncoding('gzip;q=1, br;q=0.5'), 'gzip')
    assert.equal(preferredEncoding('br;q=0, gzip'), 'gzip')
    assert.equal(preferredEncoding('*'), 'br')
    assert.equal(preferredEncoding('*;q=0, identity'), null)
    assert.equal(preferredEncoding('deflate'), null)
    assert.equal(preferredEncoding(''), null)
    assert.equal(preferredEncoding('gzip, br', ['gzip']), 'gzip')
  })

  test("the build's precompressed copies of public/assets are chosen by encoding", async ({
    assert,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'flowcraft-assets-'))
    try {
      const code = Buffer.from('console.log("hello");\n'.repeat(100))
      await mkdir(join(dir, 'assets'))
      await writeFile(join(dir, 'assets/app-abc123.js'), code)
      await writeFile(join(dir, 'assets/app-abc123.js.br'), brotliCompressSync(code))
      await writeFile(join(dir, 'assets/app-abc123.js.gz'), gzipSync(code))
      await writeFile(join(dir, 'assets/only-gzip.css'), code)
      await writeFile(join(dir, 'assets/only-gzip.css.gz'), gzipSync(code))

      const br = await precompressedAsset(dir, '/assets/app-abc123.js', 'gzip, br')
      assert.equal(br?.encoding, 'br')
      assert.equal(br?.contentType, 'text/javascript; charset=utf-8')
      const gz = await precompressedAsset(dir, '/assets/only-gzip.css', 'gzip, br')
      assert.equal(gz?.encoding, 'gzip')
      assert.equal(gz?.contentType, 'text/css; charset=utf-8')
      assert.isNull(await precompressedAsset(dir, '/assets/only-gzip.css', 'br'))
      assert.isNull(await precompressedAsset(dir, '/assets/app-abc123.js', undefined))
      assert.isNull(await precompressedAsset(dir, '/assets/../assets/app-abc123.js', 'br'))
      assert.isNull(await precompressedAsset(dir, '/favicon.svg', 'br'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
