import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import * as Y from 'yjs'
import Bot from '#models/bot'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import type { BotV6 } from '#shared/bot/types'
import { decodeBase64, encodeBase64, readDraft, writeDraft } from '#shared/coedit/mirror'
import { documentChannel, personChannel } from '#shared/coedit/protocol'
import { createUser, firstWorkspaceOf, textBubble } from '#tests/helpers'
import { openStream } from '#tests/functional/event_stream'

/**
 * Co-editing's server side (docs/editor.md "Editing together"): channels and routes
 * authorised per draft like the REST routes, updates relayed and written into the draft,
 * a draft written elsewhere folded in, a removed member told at once.
 */

async function sharedBot() {
  const owner = await createUser()
  const workspace = await firstWorkspaceOf(owner)
  const bot = await new CreateBot().handle(owner, workspace, { name: 'Together' })
  await new UpdateBot().handle(bot, {
    groups: [
      {
        id: 'g1',
        title: 'Hello',
        graphCoordinates: { x: 200, y: 0 },
        blocks: [textBubble('b1', 'Hi') as never],
      },
    ],
  })
  return { owner, workspace, bot }
}

async function addMember(workspaceId: string, role: 'MEMBER' | 'GUEST') {
  const user = await createUser()
  await WorkspaceMember.create({ workspaceId, userId: user.id, role })
  return user
}

/** A replica of the shared draft as an editor builds it from GET /api/coedit/bots/:id. */
function replicaOf(state: string) {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, decodeBase64(state))
  return doc
}

/** The update a change to the replica's draft makes. */
function change(doc: Y.Doc, edit: (bot: BotV6) => BotV6) {
  let update: Uint8Array | null = null
  doc.once('update', (bytes: Uint8Array) => {
    update = bytes
  })
  writeDraft(doc, edit(readDraft(doc) as unknown as BotV6) as never)
  return encodeBase64(update!)
}

function renameGroup(title: string) {
  return (bot: BotV6) => ({
    ...bot,
    groups: bot.groups.map((group) => (group.id === 'g1' ? { ...group, title } : group)),
  })
}

async function eventually(check: () => Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

test.group('Co-editing / channels and routes', () => {
  test('a draft channel takes its readers only; a foreign or unknown id is refused', async ({
    client,
  }) => {
    const { owner, workspace, bot } = await sharedBot()
    const guest = await addMember(workspace.id, 'GUEST')
    const stranger = await createUser()
    const other = await sharedBot()
    const subscribe = (channel: string, user: typeof owner) =>
      client
        .post('/__transmit/subscribe')
        .json({ uid: randomUUID(), channel })
        .loginAs(user)
        .withCsrfToken()

    ;(await subscribe(documentChannel('bots', bot.id), owner)).assertStatus(204)
    ;(await subscribe(documentChannel('bots', bot.id), guest)).assertStatus(204)
    ;(await subscribe(documentChannel('bots', bot.id), stranger)).assertStatus(400)
    // Another workspace's bot, an id of the wrong kind, an id that does not exist.
    ;(await subscribe(documentChannel('bots', other.bot.id), owner)).assertStatus(400)
    ;(await subscribe(documentChannel('workflows', bot.id), owner)).assertStatus(400)
    ;(await subscribe(documentChannel('bots', 'nope'), owner)).assertStatus(400)
    // A person's channel is theirs alone.
    ;(await subscribe(personChannel(owner.id), owner)).assertStatus(204)
    ;(await subscribe(personChannel(owner.id), guest)).assertStatus(400)
  })

  test('the routes: readers get the state, writers alone send updates', async ({
    client,
    assert,
  }) => {
    const { owner, workspace, bot } = await sharedBot()
    const guest = await addMember(workspace.id, 'GUEST')
    const stranger = await createUser()
    const other = await sharedBot()

    const joined = await client.get(`/api/coedit/bots/${bot.id}`).loginAs(guest)
    joined.assertStatus(200)
    assert.equal(joined.body().mode, 'read')
    const doc = replicaOf(joined.body().state)
    assert.equal((readDraft(doc) as unknown as BotV6).groups[0].title, 'Hello')

    const update = change(doc, renameGroup('By the guest'))
    const post = (user: typeof owner, id: string, body: object) =>
      client.post(`/api/coedit/bots/${id}/updates`).json(body).loginAs(user).withCsrfToken()
    ;(await post(guest, bot.id, { clientId: 'g', update })).assertStatus(403)
    ;(await post(stranger, bot.id, { clientId: 's', update })).assertStatus(404)
    ;(await post(owner, other.bot.id, { clientId: 'o', update })).assertStatus(404)
    ;(await client.get(`/api/coedit/bots/${other.bot.id}`).loginAs(owner)).assertStatus(404)
    ;(await post(owner, bot.id, { clientId: 'o', update: '/////w==' })).assertStatus(422)
    ;(
      await client
        .post(`/api/coedit/bots/${bot.id}/presence`)
        .json({ clientId: 'g', cursor: { x: 1, y: 2 } })
        .loginAs(guest)
        .withCsrfToken()
    ).assertStatus(204)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.equal((await Bot.findOrFail(bot.id)).groups[0].title, 'Hello')
  })

  test('an update reaches the other editors and lands in the draft', async ({ client, assert }) => {
    const { owner, workspace, bot } = await sharedBot()
    const colleague = await addMember(workspace.id, 'MEMBER')
    const uid = randomUUID()
    const stream = await openStream(uid)
    try {
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid, channel: documentChannel('bots', bot.id) })
          .loginAs(colleague)
          .withCsrfToken()
      ).assertStatus(204)
      const revision = (await Bot.findOrFail(bot.id)).revision
      const doc = replicaOf(
        (await client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner)).body().state
      )
      const update = change(doc, renameGroup('Welcome'))
      ;(
        await client
          .post(`/api/coedit/bots/${bot.id}/updates`)
          .json({ clientId: 'owner-tab', update })
          .loginAs(owner)
          .withCsrfToken()
      ).assertStatus(204)

      await stream.until((all) => all.some((message) => message.payload.type === 'update'))
      const relayed = stream.messages.find((message) => message.payload.type === 'update')!
      assert.equal(relayed.channel, documentChannel('bots', bot.id))
      assert.deepInclude(relayed.payload, { clientId: 'owner-tab', by: 'person', update })

      await eventually(async () => (await Bot.findOrFail(bot.id)).groups[0].title === 'Welcome')
      assert.isAbove((await Bot.findOrFail(bot.id)).revision, revision)
      // Someone joining now starts from the merged draft.
      const late = await client.get(`/api/coedit/bots/${bot.id}`).loginAs(colleague)
      assert.equal(
        (readDraft(replicaOf(late.body().state)) as unknown as BotV6).groups[0].title,
        'Welcome'
      )
    } finally {
      await stream.close()
    }
  })

  test('a save writes the merged draft now and tells every editor its issues', async ({
    client,
    assert,
  }) => {
    const { owner, workspace, bot } = await sharedBot()
    const colleague = await addMember(workspace.id, 'MEMBER')
    const guest = await addMember(workspace.id, 'GUEST')
    const uid = randomUUID()
    const stream = await openStream(uid)
    try {
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid, channel: documentChannel('bots', bot.id) })
          .loginAs(colleague)
          .withCsrfToken()
      ).assertStatus(204)
      const doc = replicaOf(
        (await client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner)).body().state
      )
      // An OpenAI block without its options: an issue the editors mark on it.
      const update = change(doc, (draft) => ({
        ...draft,
        groups: [
          {
            ...draft.groups[0],
            blocks: [...draft.groups[0].blocks, { id: 'ai1', type: 'openai', options: {} }],
          },
        ] as never,
      }))
      await client
        .post(`/api/coedit/bots/${bot.id}/updates`)
        .json({ clientId: 'owner-tab', update })
        .loginAs(owner)
        .withCsrfToken()
      const written = await client
        .post(`/api/coedit/bots/${bot.id}/write`)
        .json({ clientId: 'owner-tab' })
        .loginAs(owner)
        .withCsrfToken()
      written.assertStatus(200)
      // Written when the answer comes, not a moment later.
      const stored = await Bot.findOrFail(bot.id)
      assert.deepEqual(
        stored.groups[0].blocks.map((block) => block.id),
        ['b1', 'ai1']
      )
      assert.equal(written.body().revision, stored.revision)
      assert.include(
        written.body().issues.map((issue: { blockId: string }) => issue.blockId),
        'ai1'
      )
      await stream.until((all) => all.some((message) => message.payload.type === 'issues'))
      const told = stream.messages.find((message) => message.payload.type === 'issues')!
      assert.deepEqual(told.payload.issues, written.body().issues)
      // Writing is for writers.
      ;(
        await client
          .post(`/api/coedit/bots/${bot.id}/write`)
          .json({ clientId: 'guest-tab' })
          .loginAs(guest)
          .withCsrfToken()
      ).assertStatus(403)
    } finally {
      await stream.close()
    }
  })

  test('updates sent as the page is left are written before the answer', async ({
    client,
    assert,
  }) => {
    const { owner, bot } = await sharedBot()
    const doc = replicaOf(
      (await client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner)).body().state
    )
    const response = await client
      .post(`/api/coedit/bots/${bot.id}/updates`)
      .json({ clientId: 'leaving-tab', update: change(doc, renameGroup('Left with')), write: true })
      .loginAs(owner)
      .withCsrfToken()
    response.assertStatus(200)
    const stored = await Bot.findOrFail(bot.id)
    assert.equal(stored.groups[0].title, 'Left with')
    assert.equal(response.body().revision, stored.revision)
    assert.isArray(response.body().issues)
  })

  test('a draft written elsewhere is folded in once and broadcast', async ({ client, assert }) => {
    const { owner, bot } = await sharedBot()
    const first = await client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner)
    const doc = replicaOf(first.body().state)
    // An API client (or a restore) writes the draft outside co-editing.
    const stored = await Bot.findOrFail(bot.id)
    await new UpdateBot().handle(stored, {
      groups: [{ ...stored.groups[0], title: 'From the API' }],
    })
    const uid = randomUUID()
    const stream = await openStream(uid)
    try {
      await client
        .post('/__transmit/subscribe')
        .json({ uid, channel: documentChannel('bots', bot.id) })
        .loginAs(owner)
        .withCsrfToken()
      const [a, b] = await Promise.all([
        client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner),
        client.get(`/api/coedit/bots/${bot.id}`).loginAs(owner),
      ])
      for (const answer of [a, b]) {
        const title = (readDraft(replicaOf(answer.body().state)) as unknown as BotV6).groups[0]
          .title
        assert.equal(title, 'From the API')
      }
      await stream.until((all) => all.some((message) => message.payload.type === 'update'))
      const folded = stream.messages.filter((message) => message.payload.type === 'update')
      assert.lengthOf(folded, 1)
      assert.deepInclude(folded[0].payload, { clientId: null, by: 'elsewhere' })
      // An editor that had the state before gets there with the broadcast update alone.
      Y.applyUpdate(doc, decodeBase64(folded[0].payload.update))
      assert.equal((readDraft(doc) as unknown as BotV6).groups[0].title, 'From the API')
    } finally {
      await stream.close()
    }
  })

  test('a member removed from the workspace is told at once', async ({ client, assert }) => {
    const { owner, workspace, bot } = await sharedBot()
    const member = await addMember(workspace.id, 'MEMBER')
    const uid = randomUUID()
    const stream = await openStream(uid)
    try {
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid, channel: personChannel(member.id) })
          .loginAs(member)
          .withCsrfToken()
      ).assertStatus(204)
      ;(
        await client
          .delete(`/workspaces/${workspace.id}/members/${member.id}`)
          .loginAs(owner)
          .withCsrfToken()
      ).assertStatus(200)
      await stream.until((all) => all.length > 0)
      assert.deepEqual(stream.messages[0].payload, { type: 'revoked', workspaceId: workspace.id })
      ;(await client.get(`/api/coedit/bots/${bot.id}`).loginAs(member)).assertStatus(404)
    } finally {
      await stream.close()
    }
  })
})
