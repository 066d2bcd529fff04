import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import * as Y from 'yjs'
import Bot from '#models/bot'
import Workflow from '#models/workflow'
import BotVersion from '#models/bot_version'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import type { BotV6 } from '#shared/bot/types'
import { decodeBase64, encodeBase64, readDraft, writeDraft } from '#shared/coedit/mirror'
import { COPILOT_CLIENT_ID, documentChannel } from '#shared/coedit/protocol'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { openStream } from '#tests/functional/event_stream'
import { createUser, firstWorkspaceOf, setUserPlan, textBubble } from '#tests/helpers'

/**
 * The copilot in a shared draft (docs/editor.md "The copilot in a shared draft"): its change
 * reaches every open editor as one update marked as the copilot's, on top of what a
 * colleague changed meanwhile, and the stored draft holds it once.
 */

const KEY = 'coedit-copilot-key'

/** First round: a text bubble in a group of its own; then the answer. */
function addGroupScript(body: any) {
  const messages: any[] = body.messages
  const lastUser = messages.map((m) => m.role).lastIndexOf('user')
  if (messages.slice(lastUser + 1).some((m) => m.role === 'tool')) {
    return { content: 'I added a greeting.' }
  }
  return {
    tool_calls: [
      {
        id: 'call_add',
        type: 'function',
        function: {
          name: 'add_block',
          arguments: JSON.stringify({
            type: 'text',
            groupTitle: 'From the copilot',
            options: { richText: [{ type: 'p', children: [{ text: 'Hi from the copilot' }] }] },
          }),
        },
      },
    ],
  }
}

function replicaOf(state: string) {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, decodeBase64(state))
  return doc
}

const draftOf = (doc: Y.Doc) => readDraft(doc) as unknown as BotV6
const copilotGroups = (bot: Pick<BotV6, 'groups'>) =>
  bot.groups.filter((group) => group.title === 'From the copilot')

test.group('Co-editing / the copilot', () => {
  test('its change is one update marked as the copilot’s, seen by every editor, stored once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, script: addGroupScript })
    cleanup(() => standIn.close())
    const owner = await createUser({ name: 'Ann' })
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    await new CreateCredential().handle(owner, workspace, {
      type: 'openai',
      name: 'Stand-in',
      data: { apiKey: KEY, baseUrl: standIn.baseUrl },
    })
    const colleague = await createUser({ name: 'Bob' })
    await WorkspaceMember.create({
      workspaceId: workspace.id,
      userId: colleague.id,
      role: 'MEMBER',
    })
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

    // Two editors, each on the draft's channel with a replica of the shared draft.
    const editors = await Promise.all(
      [owner, colleague].map(async (user) => {
        const uid = randomUUID()
        const stream = await openStream(uid)
        ;(
          await client
            .post('/__transmit/subscribe')
            .json({ uid, channel: documentChannel('bots', bot.id) })
            .loginAs(user)
            .withCsrfToken()
        ).assertStatus(204)
        const joined = await client.get(`/api/coedit/bots/${bot.id}`).loginAs(user)
        joined.assertStatus(200)
        return { user, stream, doc: replicaOf(joined.body().state) }
      })
    )
    try {
      // Bob renames the group; the copilot is asked before that edit is written.
      const bob = editors[1]
      let bobUpdate: Uint8Array | null = null
      bob.doc.once('update', (bytes: Uint8Array) => {
        bobUpdate = bytes
      })
      const before = draftOf(bob.doc)
      writeDraft(bob.doc, {
        ...before,
        groups: before.groups.map((group) => ({ ...group, title: 'Welcome' })),
      } as never)
      ;(
        await client
          .post(`/api/coedit/bots/${bot.id}/updates`)
          .json({ clientId: 'bob-tab', update: encodeBase64(bobUpdate!) })
          .loginAs(colleague)
          .withCsrfToken()
      ).assertStatus(204)
      const reply = await client
        .post(`/api/bots/${bot.id}/copilot/messages`)
        .json({ content: 'Greet the visitors' })
        .loginAs(owner)
        .withCsrfToken()
      reply.assertStatus(200)
      assert.isTrue(reply.body().isUpdated)
      const copilotUpdate: string = reply.body().coeditUpdate
      assert.isString(copilotUpdate)

      for (const editor of editors) {
        await editor.stream.until((all) =>
          all.some(
            (message) => message.payload.type === 'update' && message.payload.by === 'copilot'
          )
        )
        await editor.stream.until((all) =>
          all.some((message) => message.payload.type === 'presence' && message.payload.copilot)
        )
        const updates = editor.stream.messages.filter(
          (message) => message.payload.type === 'update' && message.payload.by === 'copilot'
        )
        // One update, the copilot's, not an editor's: the one the asker got in the reply.
        assert.lengthOf(updates, 1)
        assert.deepInclude(updates[0].payload, { clientId: null, update: copilotUpdate })
        const presence = editor.stream.messages.find(
          (message) => message.payload.type === 'presence' && message.payload.copilot
        )!
        assert.equal(presence.payload.clientId, COPILOT_CLIENT_ID)
        assert.equal(presence.payload.name, 'Copilot')
        // Bob's own edit came back to him too (relayed to the channel), which Yjs ignores.
        for (const message of editor.stream.messages) {
          if (message.payload.type === 'update') {
            Y.applyUpdate(editor.doc, decodeBase64(message.payload.update))
          }
        }
        // The asker applies the reply's update as well: still once.
        Y.applyUpdate(editor.doc, decodeBase64(copilotUpdate))
        const draft = draftOf(editor.doc)
        assert.lengthOf(copilotGroups(draft), 1)
        assert.lengthOf(copilotGroups(draft)[0].blocks, 1)
        assert.equal(draft.groups.find((group) => group.id === 'g1')?.title, 'Welcome')
      }

      // The stored draft is the merged one: Bob's title and the copilot's group, once.
      const stored = await Bot.findOrFail(bot.id)
      assert.equal(stored.groups.find((group) => group.id === 'g1')?.title, 'Welcome')
      assert.lengthOf(copilotGroups(stored), 1)
      // So is the state a late joiner starts from.
      const late = replicaOf(
        (await client.get(`/api/coedit/bots/${bot.id}`).loginAs(colleague)).body().state
      )
      assert.lengthOf(copilotGroups(draftOf(late)), 1)
      assert.equal(draftOf(late).groups.find((group) => group.id === 'g1')?.title, 'Welcome')
      // The copilot's change is its version in the history.
      const versions = await BotVersion.query().where('bot_id', bot.id).orderBy('created_at', 'asc')
      assert.equal(versions.at(-1)?.kind, 'assistant')
    } finally {
      for (const editor of editors) await editor.stream.close()
    }
  }).timeout(60_000)

  test('a workflow: the copilot’s node arrives once, on top of a rename not yet written', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({
      apiKey: KEY,
      script: (body: any) => {
        const messages: any[] = body.messages
        const lastUser = messages.map((m) => m.role).lastIndexOf('user')
        if (messages.slice(lastUser + 1).some((m) => m.role === 'tool')) return { content: 'Done.' }
        return {
          tool_calls: [
            {
              id: 'call_add',
              type: 'function',
              function: {
                name: 'add_node',
                arguments: JSON.stringify({ type: 'webhook-trigger', title: 'From the copilot' }),
              },
            },
          ],
        }
      },
    })
    cleanup(() => standIn.close())
    const owner = await createUser({ name: 'Ann' })
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    await new CreateCredential().handle(owner, workspace, {
      type: 'openai',
      name: 'Stand-in',
      data: { apiKey: KEY, baseUrl: standIn.baseUrl },
    })
    const workflow = await new CreateWorkflow().handle(owner, workspace, { name: 'Flow' })
    const uid = randomUUID()
    const stream = await openStream(uid)
    try {
      ;(
        await client
          .post('/__transmit/subscribe')
          .json({ uid, channel: documentChannel('workflows', workflow.id) })
          .loginAs(owner)
          .withCsrfToken()
      ).assertStatus(204)
      const joined = await client.get(`/api/coedit/workflows/${workflow.id}`).loginAs(owner)
      const doc = replicaOf(joined.body().state)
      let rename: Uint8Array | null = null
      doc.once('update', (bytes: Uint8Array) => {
        rename = bytes
      })
      writeDraft(doc, { ...readDraft(doc), name: 'Renamed together' })
      ;(
        await client
          .post(`/api/coedit/workflows/${workflow.id}/updates`)
          .json({ clientId: 'ann-tab', update: encodeBase64(rename!) })
          .loginAs(owner)
          .withCsrfToken()
      ).assertStatus(204)
      const reply = await client
        .post(`/api/workflows/${workflow.id}/copilot/messages`)
        .json({ content: 'Start from a webhook' })
        .loginAs(owner)
        .withCsrfToken()
      reply.assertStatus(200)
      await stream.until((all) =>
        all.some((message) => message.payload.type === 'update' && message.payload.by === 'copilot')
      )
      const updates = stream.messages.filter(
        (message) => message.payload.type === 'update' && message.payload.by === 'copilot'
      )
      assert.lengthOf(updates, 1)
      assert.equal(updates[0].payload.update, reply.body().coeditUpdate)
      Y.applyUpdate(doc, decodeBase64(reply.body().coeditUpdate))
      for (const message of stream.messages) {
        if (message.payload.type === 'update')
          Y.applyUpdate(doc, decodeBase64(message.payload.update))
      }
      const triggers = (draft: { blocks: { title?: string }[] }) =>
        draft.blocks.filter((block) => block.title === 'From the copilot')
      const draft = readDraft(doc) as unknown as { name: string; blocks: { title?: string }[] }
      assert.lengthOf(triggers(draft), 1)
      assert.equal(draft.name, 'Renamed together')
      const stored = await Workflow.findOrFail(workflow.id)
      assert.lengthOf(triggers(stored as never), 1)
      assert.equal(stored.name, 'Renamed together')
    } finally {
      await stream.close()
    }
  }).timeout(60_000)
})
