import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { chatFixture } from '#tests/unit/engine/fixtures'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { entryScriptOf } from '#tests/test_assets'
import { type Owner, owner, publish } from '#tests/functional/chat_api_fixtures'

test.group('Chat API: public page, files and embed', (group) => {
  let who: Owner

  group.setup(async () => {
    who = await owner()
  })

  test('the public page renders the bot with its metadata in the head', async ({
    client,
    assert,
  }) => {
    const raw = chatFixture('greeting').bot
    const bot = await publish(client, who, {
      ...raw,
      id: undefined,
      settings: {
        metadata: {
          title: 'Ask Ada',
          description: 'A friendly <bot>',
          imageUrl: 'https://example.com/og.png',
          favIconUrl: 'https://example.com/favicon.ico',
          customHeadCode: '<meta name="custom-head" content="yes">',
          googleTagManagerId: 'GTM-ABC123',
        },
      },
    })
    const page = await client.get(`/${bot.publicId}`)
    page.assertStatus(200)
    const html = page.text()
    assert.include(html, '<title>Ask Ada</title>')
    assert.include(html, 'content="A friendly &lt;bot&gt;"')
    assert.include(html, '<meta property="og:image" content="https://example.com/og.png">')
    assert.include(html, '<link rel="icon" href="https://example.com/favicon.ico">')
    assert.include(html, '<meta name="custom-head" content="yes">')
    assert.include(html, 'GTM-ABC123')
    assert.notExists(page.header('x-frame-options'), 'the embed frames this page')
    // The visitor surface's own entry, not the dashboard's Inertia app.
    assert.include(html, entryScriptOf('resources/viewer.tsx'))
    assert.notInclude(html, entryScriptOf('resources/app.tsx'))
    assert.include(html, '<script type="application/json" id="viewer-props">')

    ;(await client.get('/no-such-bot-here')).assertStatus(404)
    const dashboard = await client.get('/signin')
    assert.notInclude(dashboard.text(), entryScriptOf('resources/viewer.tsx'))
  })

  test('files go to the awaited file input within its size limit', async ({ client, assert }) => {
    const bot = await publish(client, who, {
      version: '6',
      name: 'Upload',
      groups: [
        {
          id: 'g1',
          title: 'Upload',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [
            { id: 'file1', type: 'file input', options: { sizeLimit: 1, isRequired: true } },
          ],
        },
      ],
      events: [
        { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
      ],
      edges: [{ id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
      variables: [],
      theme: {},
      settings: {},
    })
    const start = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    const { sessionId } = start.body()
    const small = await client
      .post(`/api/v1/sessions/${sessionId}/files`)
      .field('blockId', 'file1')
      .file('file', Buffer.from('hello'), { filename: 'hello world.txt' })
    small.assertStatus(200)
    assert.match(small.body().url, /\/storage\/public\/results\/.+hello_world\.txt$/)
    const stored = await client.get(new URL(small.body().url).pathname)
    stored.assertStatus(200)
    assert.equal(stored.text(), 'hello')

    const big = await client
      .post(`/api/v1/sessions/${sessionId}/files`)
      .field('blockId', 'file1')
      .file('file', Buffer.alloc(1024 * 1024 + 10), { filename: 'big.bin' })
    big.assertStatus(413)
    const wrong = await client
      .post(`/api/v1/sessions/${sessionId}/files`)
      .field('blockId', 'other')
      .file('file', Buffer.from('x'), { filename: 'x.txt' })
    wrong.assertStatus(400)

    const answer = await client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({
      message: { type: 'text', text: small.body().url, attachedFileUrls: [small.body().url] },
    })
    answer.assertStatus(200)
    const saved = await db.from('answers').where('block_id', 'file1').orderBy('id', 'desc').first()
    assert.equal(saved.content, small.body().url)
  })

  test('/embed.js serves the embed script', async ({ client, assert }) => {
    const script = await client.get('/embed.js')
    script.assertStatus(200)
    assert.include(script.header('content-type'), 'javascript')
    assert.include(script.text(), 'Flowcraft')
  })
})

test.group('Editor: test the request', () => {
  test('runs the HTTP request block with test values and returns the mapped variables', async ({
    client,
    assert,
  }) => {
    const server = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify({ greeting: `hello ${request.url}` }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const who = await owner()
      const bot = await publish(client, who, { ...chatFixture('http_request').bot, id: undefined })
      const options = {
        webhook: { method: 'GET', url: `${url}/{{City}}` },
        responseVariableMapping: [{ bodyPath: 'greeting', variableId: 'v_temp' }],
      }
      const response = await client
        .post(`/api/bots/${bot.id}/blocks/test`)
        .loginAs(who.user)
        .withCsrfToken()
        .json({ type: 'Webhook', options, values: { v_city: 'Oslo' } })
      response.assertStatus(200)
      assert.deepEqual(response.body().variablesSet, [
        { id: 'v_temp', name: 'Temp', value: 'hello /Oslo' },
      ])
      assert.equal(response.body().logs[0].details.statusCode, 200)

      const stranger = await owner()
      const refused = await client
        .post(`/api/bots/${bot.id}/blocks/test`)
        .loginAs(stranger.user)
        .withCsrfToken()
        .json({ type: 'Webhook', options })
      refused.assertStatus(404)
    } finally {
      server.close()
    }
  })
})
