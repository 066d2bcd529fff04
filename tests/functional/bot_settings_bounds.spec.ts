import { test } from '@japa/runner'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * The API refuses what the editor refuses (docs/security.md, "Plan limits"): numbers of
 * the settings and theme outside the editor's bounds, with the editor's words, and
 * removing the badge on a plan without brandingRemoval.
 */

async function setup(plan: User['plan']) {
  const user = await createUser()
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `b-${Date.now()}-${Math.random()}`)).value
  return { user, workspace, token }
}

function botFile(extra: { settings?: object; theme?: object } = {}) {
  return {
    version: '6',
    name: 'Bounds',
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [{ id: 'b1', type: 'text input', options: { variableId: 'v1' } }],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
    variables: [{ id: 'v1', name: 'Name' }],
    theme: extra.theme ?? {},
    settings: extra.settings ?? {},
  }
}

async function createBot(client: any, token: string, workspaceId: string, file = botFile()) {
  const created = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId, bot: file })
  created.assertStatus(201)
  return created.body().bot as { id: string; settings: any; theme: any }
}

test.group('Bot settings and theme bounds on the API', () => {
  test('out-of-bounds numbers are refused with the editor’s messages, in-bounds ones saved', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup('STANDARD')
    const bot = await createBot(client, token, workspace.id)
    const patch = (body: object) =>
      client.patch(`/api/v1/bots/${bot.id}`).bearerToken(token).json(body)

    const cases: [object, string, string][] = [
      [
        { settings: { whatsApp: { sessionExpiryTimeout: 500 } } },
        'settings.whatsApp.sessionExpiryTimeout',
        'Must be between 0.01 and 48',
      ],
      [
        { settings: { telegram: { sessionExpiryTimeout: 0 } } },
        'settings.telegram.sessionExpiryTimeout',
        'Must be between 0.01 and 48',
      ],
      [
        { settings: { typingEmulation: { delayBetweenBubbles: 99 } } },
        'settings.typingEmulation.delayBetweenBubbles',
        'Must be between 0 and 5',
      ],
      [
        { settings: { typingEmulation: { speed: 'fast' } } },
        'settings.typingEmulation.speed',
        'Must be a number',
      ],
      [
        { theme: { chat: { hostBubbles: { opacity: 7 } } } },
        'theme.chat.hostBubbles.opacity',
        'Must be between 0 and 1',
      ],
      [
        { theme: { chat: { inputs: { border: { thickness: 21 } } } } },
        'theme.chat.inputs.border.thickness',
        'Must be between 0 and 20',
      ],
      [
        { theme: { general: { progressBar: { thickness: 0 } } } },
        'theme.general.progressBar.thickness',
        'Must be between 1 and 32',
      ],
      [
        { settings: { metadata: { imageUrl: 'javascript:alert(1)' } } },
        'settings.metadata.imageUrl',
        'Enter a full address starting with http:// or https://',
      ],
      [
        { settings: { metadata: { googleTagManagerId: 'UA-1' } } },
        'settings.metadata.googleTagManagerId',
        'Enter an ID like GTM-XXXXXXX',
      ],
      [
        { theme: { chat: { container: { maxWidth: '100%;background:url(x)' } } } },
        'theme.chat.container.maxWidth',
        'Enter a size like 800px or 100%',
      ],
      [
        { theme: { general: { background: { type: 'Image', content: 'data:x' } } } },
        'theme.general.background.content',
        'Enter a full address starting with http:// or https://',
      ],
    ]
    for (const [body, field, message] of cases) {
      const response = await patch(body)
      response.assertStatus(422)
      const rule = message.startsWith('Must') ? 'bounds' : 'format'
      assert.deepInclude(response.body().errors, { field, message, rule }, field)
    }
    const stored = await Bot.findOrFail(bot.id)
    assert.isUndefined((stored.settings as any).whatsApp)

    const ok = await patch({
      settings: {
        typingEmulation: { delayBetweenBubbles: 5, speed: 400 },
        whatsApp: { sessionExpiryTimeout: 0.01 },
      },
      theme: {
        general: { background: { type: 'Color', content: '#ffffff' } },
        chat: {
          container: { maxWidth: '800px' },
          hostBubbles: { opacity: 0.5, border: { customRoundeness: 100 } },
          hostAvatar: { isEnabled: true, url: 'https://example.com/a.png' },
        },
      },
    })
    ok.assertStatus(200)
    const saved = await Bot.findOrFail(bot.id)
    assert.equal((saved.settings as any).typingEmulation.delayBetweenBubbles, 5)
    assert.equal((saved.theme as any).chat.hostBubbles.opacity, 0.5)
  })

  test('an imported file gets no further than the editor would', async ({ client }) => {
    const { workspace, token } = await setup('STANDARD')
    const refused = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({
        workspaceId: workspace.id,
        bot: botFile({ theme: { chat: { buttons: { opacity: 7 } } } }),
      })
    refused.assertStatus(422)
    refused.assertBodyContains({
      description: 'theme.chat.buttons.opacity: Must be between 0 and 1',
    })
  })
})

test.group('Branding removal only on plans with brandingRemoval', () => {
  test('Free: the badge is on from creation, the API cannot turn it off, imports and publishes keep it', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup('FREE')
    const bot = await createBot(
      client,
      token,
      workspace.id,
      botFile({ settings: { general: { isBrandingEnabled: false } } })
    )
    assert.isTrue(bot.settings.general.isBrandingEnabled)

    const refused = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(token)
      .json({ settings: { ...bot.settings, general: { isBrandingEnabled: false } } })
    refused.assertStatus(403)
    refused.assertBodyContains({ description: 'Your plan keeps the badge on.' })
    assert.isTrue((await Bot.findOrFail(bot.id)).settings.general?.isBrandingEnabled)

    // A draft that has it off from before (an older save, a downgrade): saved and published on.
    await Bot.query()
      .where('id', bot.id)
      .update({ settings: JSON.stringify({ general: { isBrandingEnabled: false } }) })
    const resaved = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(token)
      .json({ settings: { general: { isBrandingEnabled: false, isInputPrefillEnabled: true } } })
    resaved.assertStatus(200)
    assert.isTrue(resaved.body().bot.settings.general.isBrandingEnabled)
    await Bot.query()
      .where('id', bot.id)
      .update({ settings: JSON.stringify({ general: { isBrandingEnabled: false } }) })
    ;(await client.post(`/api/v1/bots/${bot.id}/publish`).bearerToken(token)).assertStatus(200)
    const published = await PublishedBot.findByOrFail('bot_id', bot.id)
    assert.isTrue(published.settings.general?.isBrandingEnabled)
  })

  test('restoring the published copy keeps the badge on Free and refuses numbers out of bounds', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup('FREE')
    const bot = await createBot(client, token, workspace.id)
    ;(await client.post(`/api/v1/bots/${bot.id}/publish`).bearerToken(token)).assertStatus(200)
    // A copy published before these checks: badge off.
    await PublishedBot.query()
      .where('bot_id', bot.id)
      .update({ settings: JSON.stringify({ general: { isBrandingEnabled: false } }) })
    const restored = await client
      .post(`/api/v1/bots/${bot.id}/restore-published`)
      .bearerToken(token)
    restored.assertStatus(200)
    assert.isTrue((await Bot.findOrFail(bot.id)).settings.general?.isBrandingEnabled)

    await PublishedBot.query()
      .where('bot_id', bot.id)
      .update({ theme: JSON.stringify({ chat: { guestBubbles: { opacity: 7 } } }) })
    const refused = await client.post(`/api/v1/bots/${bot.id}/restore-published`).bearerToken(token)
    refused.assertStatus(422)
    refused.assertBodyContains({
      description: 'theme.chat.guestBubbles.opacity: Must be between 0 and 1',
    })
  })

  test('Basic: the badge can be turned off', async ({ client, assert }) => {
    const { workspace, token } = await setup('BASIC')
    const bot = await createBot(client, token, workspace.id)
    const off = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(token)
      .json({ settings: { general: { isBrandingEnabled: false } } })
    off.assertStatus(200)
    assert.isFalse(off.body().bot.settings.general.isBrandingEnabled)
  })
})
