import { test } from '@japa/runner'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import Bot from '#models/bot'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * The chat API emits the actions the visitor's page carries out (Google Analytics, Pixel,
 * Chatwoot), after the bubble that precedes them; tests/browser/host_actions.spec.ts runs
 * them on a host page.
 */

const text = (id: string, value: string) => ({
  id,
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text: value }] }] },
})

test.group('Chat API: actions for the host page', () => {
  test('Google Analytics, Pixel and Chatwoot blocks become client-side actions', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `host-${Date.now()}`)).value
    const bot = {
      version: '6',
      name: 'Tracking',
      groups: [
        {
          id: 'g1',
          title: 'Start',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [
            text('t1', 'Welcome'),
            {
              id: 'ga',
              type: 'Google Analytics',
              options: {
                trackingId: 'G-TEST123',
                action: 'sign_up',
                category: '{{Source}}',
                value: '42',
              },
            },
            {
              id: 'px',
              type: 'Pixel',
              options: {
                eventType: 'Custom',
                name: 'Quiz',
                params: [{ key: 'score', value: '7' }],
              },
            },
            {
              id: 'cw',
              type: 'Chatwoot',
              options: { task: 'Show widget', websiteToken: 'tok', user: { id: 'u1' } },
            },
            { id: 'ask', type: 'text input', options: { variableId: 'v_done' } },
          ],
        },
      ],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
      edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
      variables: [
        { id: 'v_source', name: 'Source', value: 'bot' },
        { id: 'v_done', name: 'Done' },
      ],
      theme: {},
      settings: {},
    }
    const imported = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot })
    imported.assertStatus(201)
    const id = imported.body().bot.id
    ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
    const publicId = (await Bot.findOrFail(id)).publicId!
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    const actions = start.body().clientSideActions
    assert.deepEqual(
      actions.map((action: any) => [action.type, action.lastBubbleBlockId]),
      [
        ['googleAnalytics', 't1'],
        ['pixel', 't1'],
        ['chatwoot', 't1'],
      ]
    )
    assert.deepInclude(actions[0].googleAnalytics, {
      trackingId: 'G-TEST123',
      action: 'sign_up',
      category: 'bot',
      value: 42,
    })
    assert.deepEqual(actions[1].pixel.params, [{ key: 'score', value: '7' }])
    assert.equal(actions[1].pixel.name, 'Quiz')
    assert.deepInclude(actions[2].chatwoot, {
      task: 'Show widget',
      baseUrl: 'https://app.chatwoot.com',
      websiteToken: 'tok',
      user: { id: 'u1' },
    })
  })
})
