import { test } from '@japa/runner'
import { publishThroughApi } from '#tests/helpers'

function greeter(settings: Record<string, unknown>) {
  return {
    version: '6',
    name: 'Tagged',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          {
            id: 't1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hello' }] }] },
          },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings,
  }
}

/** The start reply's "inject start props" action (the bot's GTM container). */
test.group('Inject start props', () => {
  test("a bot with a Tag Manager container starts with injectStartProps; the next turns don't", async ({
    client,
    assert,
  }) => {
    const publicId = await publishThroughApi(
      client,
      greeter({ metadata: { googleTagManagerId: 'GTM-ABC123' } })
    )
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    assert.deepEqual(start.body().clientSideActions, [
      { type: 'injectStartProps', injectStartProps: { gtmId: 'GTM-ABC123' } },
    ])
    assert.equal(start.body().messages[0].content.richText[0].children[0].text, 'Hello')
  })

  test('without one, no such action (a malformed id is refused when the bot is saved)', async ({
    client,
    assert,
  }) => {
    const publicId = await publishThroughApi(client, greeter({ metadata: { title: 'Plain' } }))
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    assert.isUndefined(start.body().clientSideActions)
  })
})
