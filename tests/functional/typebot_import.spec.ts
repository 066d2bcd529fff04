import { test } from '@japa/runner'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { messageText } from '#engine/bot/engine'
import { group, textBubble, typebotExport } from '#tests/typebot_exports'
import { zipOf } from '#tests/zip_writer'
import { readZip } from '#services/zip_reader'

/**
 * "Import from Typebot": a set of exported bots (files and a zip) through
 * POST /api/bots/import-set, links between them kept, and the report of what did not
 * carry over (docs/migrating-from-typebot.md).
 */

function linkingBot(id: string, target: string, stranger: string) {
  return typebotExport({
    id,
    name: 'Main menu',
    startEdgeId: 'e_start',
    groups: [
      group('g1', 'Welcome', 0, [
        textBubble('b_hi', 'Welcome'),
        { id: 'b_link', type: 'Typebot link', options: { typebotId: target, groupId: 'g_sub' } },
        {
          id: 'b_other',
          type: 'Typebot link',
          options: { typebotId: stranger },
        },
      ]),
    ],
    edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
  })
}

function linkedBot(id: string) {
  const bot = typebotExport({
    id,
    name: 'Support',
    publicId: `support-${id}`,
    startEdgeId: 'e_start',
    groups: [group('g_sub', 'Support', 0, [textBubble('b_sub', 'Support here')])],
    edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g_sub' } }],
    settings: {
      general: { isBrandingEnabled: false, hypotheticalToggle: true },
      metadata: { title: 'Support', allowIndexing: false },
    },
  })
  bot.customDomain = 'chat.example.com'
  return bot
}

/** Blocks and events that do not carry over: a block no plugin provides, credentials, a command event. */
function legacyBot() {
  const bot = typebotExport({
    name: 'Legacy',
    startEdgeId: 'e_start',
    groups: [
      group('g1', 'Handover', 0, [
        { id: 'b_posthog', type: 'posthog', options: { action: 'Capture' } },
        {
          id: 'b_ai',
          type: 'openai',
          options: { action: 'Create chat completion', credentialsId: 'cred-from-typebot' },
        },
      ]),
    ],
    edges: [{ id: 'e_start', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
  })
  bot.events.push({
    id: 'ev_cmd',
    type: 'command',
    graphCoordinates: { x: 0, y: 200 },
    command: 'restart',
  })
  return bot
}

test.group('Import from Typebot', () => {
  test('a zip and a file: ids kept when free, links follow a new id, report', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const suffix = Date.now().toString(36)
    const mainId = `main-${suffix}`
    const supportId = `support-${suffix}`

    // Someone else already has a bot with the support bot's id: it gets a new one here.
    const other = await createUser()
    const otherToken = (await new CreateApiToken().handle(other, `o-${suffix}`)).value
    ;(
      await client
        .post('/api/v1/bots')
        .bearerToken(otherToken)
        .json({
          workspaceId: (await firstWorkspaceOf(other)).id,
          bot: typebotExport({ id: supportId, startEdgeId: 'e', groups: [], edges: [] }),
        })
    ).assertStatus(201)

    const archive = zipOf([
      { name: 'bots/support.json', data: JSON.stringify(linkedBot(supportId)) },
      { name: 'bots/readme.json', data: '{"hello": "not a bot"}' },
      { name: 'bots/legacy.json', data: JSON.stringify(legacyBot()) },
      { name: '__MACOSX/bots/._support.json', data: 'junk' },
    ])
    const response = await client
      .post('/api/bots/import-set')
      .loginAs(user)
      .withCsrfToken()
      .file('files[]', Buffer.from(JSON.stringify(linkingBot(mainId, supportId, 'elsewhere'))), {
        filename: 'main.json',
      })
      .file('files[]', archive, { filename: 'export.zip' })
    response.assertStatus(200)
    const reports = response.body().bots
    assert.lengthOf(reports, 4)
    const [main, support, readme, legacy] = reports

    assert.include(main, { file: 'main.json', status: 'imported', botId: mainId })
    assert.deepEqual(main.notCarried, [{ kind: 'link', what: 'elsewhere', where: 'Welcome' }])

    assert.equal(support.file, 'export.zip/bots/support.json')
    assert.equal(support.status, 'imported')
    assert.equal(support.originalId, supportId)
    assert.notEqual(support.botId, supportId)
    assert.equal(support.publicId, `support-${supportId}`)
    assert.sameDeepMembers(support.notCarried, [
      { kind: 'setting', what: 'general.hypotheticalToggle' },
      { kind: 'setting', what: 'metadata.allowIndexing' },
      { kind: 'domain', what: 'chat.example.com' },
    ])

    assert.include(readme, {
      file: 'export.zip/bots/readme.json',
      status: 'failed',
      error: "Failed to parse the file. Are you sure it's a bot?",
    })

    assert.equal(legacy.status, 'imported')
    assert.deepEqual(legacy.notCarried, [
      { kind: 'block', what: 'posthog', where: 'Handover' },
      { kind: 'credentials', what: 'openai', where: 'Handover' },
      { kind: 'event', what: 'command' },
    ])

    // The link now names the support bot's new id, and runs once both are published.
    const stored = await Bot.findOrFail(mainId)
    assert.equal(stored.workspaceId, workspace.id)
    assert.equal(stored.groups[0].blocks[1].options!.typebotId, support.botId)
    assert.equal(stored.groups[0].blocks[2].options!.typebotId, 'elsewhere')
    const token = (await new CreateApiToken().handle(user, `u-${suffix}`)).value
    for (const id of [support.botId, mainId]) {
      ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
    }
    const publicId = (await Bot.findOrFail(mainId)).publicId
    const chat = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    assert.deepEqual(chat.body().messages.map(messageText), ['Welcome', 'Support here'])
  })

  test('files of other types and broken archives are reported; nothing sent is refused', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const response = await client
      .post('/api/bots/import-set')
      .loginAs(user)
      .withCsrfToken()
      .file('files[]', Buffer.from('hello'), { filename: 'notes.txt' })
      .file('files[]', Buffer.from('PK\u0003\u0004broken'), { filename: 'broken.zip' })
    response.assertStatus(200)
    const [txt, zip] = response.body().bots
    assert.equal(txt.status, 'failed')
    assert.include(zip, { file: 'broken.zip', status: 'failed', error: 'Not a zip archive' })
    ;(
      await client.post('/api/bots/import-set').loginAs(user).withCsrfToken().json({})
    ).assertStatus(422)
  })

  test('zip reader: reads what it wrote, refuses bombs and junk', ({ assert }) => {
    const archive = zipOf([
      { name: 'a.json', data: '{"a":1}' },
      { name: 'b/c.json', data: 'x'.repeat(10_000) },
    ])
    const entries = readZip(archive, { maxEntries: 10, maxTotalBytes: 1_000_000 })
    assert.deepEqual(
      entries.map((e) => [e.name, e.data.length]),
      [
        ['a.json', 7],
        ['b/c.json', 10_000],
      ]
    )
    assert.throws(
      () => readZip(archive, { maxEntries: 10, maxTotalBytes: 5_000 }),
      'The archive is too large once unpacked'
    )
    assert.throws(() => readZip(archive, { maxEntries: 1, maxTotalBytes: 1_000_000 }), 'Too many')
    assert.throws(
      () =>
        readZip(Buffer.from('not a zip at all, no end record'), {
          maxEntries: 1,
          maxTotalBytes: 1,
        }),
      'Not a zip archive'
    )
  })
})
