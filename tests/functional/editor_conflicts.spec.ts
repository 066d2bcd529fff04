import { test } from '@japa/runner'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * Saving one draft from two places (docs/editor.md "Saving from two places"): a save that
 * carries the revision its editor loaded is refused with 409 once another save, a restore
 * or the copilot wrote in between; without a revision the last writer wins, as before.
 */

async function owner() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `c-${Date.now()}-${Math.random()}`)).value
  return { user, workspace, token, workspaceId: workspace.id }
}

function textGroup(id: string, text: string) {
  return {
    id,
    title: id,
    graphCoordinates: { x: 300, y: 0 },
    blocks: [
      {
        id: `${id}b`,
        type: 'text',
        content: { richText: [{ type: 'p', children: [{ text }] }] },
      },
    ],
  }
}

test.group('Editors: saving from two places', () => {
  test('bot: a save on a stale revision answers 409 and changes nothing', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const { id } = await new CreateBot().handle(who.user, who.workspace, { name: 'Twice' })
    const bot = (await client.get(`/api/v1/bots/${id}`).bearerToken(who.token)).body().bot
    const loaded = bot.revision as number
    assert.isNumber(loaded)

    // Tab A saves on the revision it loaded: accepted, the revision moves on.
    const first = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ groups: [textGroup('ga', 'from A')], revision: loaded })
    first.assertStatus(200)
    assert.equal(first.body().bot.revision, loaded + 1)

    // Tab B still holds the first revision: refused, A's content stays.
    const stale = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ groups: [textGroup('gb', 'from B')], revision: loaded })
    stale.assertStatus(409)
    const after = await client.get(`/api/v1/bots/${bot.id}`).bearerToken(who.token)
    assert.deepEqual(
      after.body().bot.groups.map((group: { id: string }) => group.id),
      ['ga']
    )
    assert.equal(after.body().bot.revision, loaded + 1)

    // Metadata saves leave the draft's revision alone: the editor's next save still passes.
    const renamed = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ isClosed: true })
    renamed.assertStatus(200)
    assert.equal(renamed.body().bot.revision, loaded + 1)

    // "Keep mine": B sends again on the revision it now knows.
    const kept = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ groups: [textGroup('gb', 'from B')], revision: loaded + 1 })
    kept.assertStatus(200)
    assert.equal(kept.body().bot.revision, loaded + 2)

    // A restore raises the revision too: an editor open from before is refused.
    const published = await client.post(`/api/v1/bots/${bot.id}/publish`).bearerToken(who.token)
    published.assertStatus(200)
    const restored = await client
      .post(`/api/v1/bots/${bot.id}/restore-published`)
      .bearerToken(who.token)
    restored.assertStatus(200)
    assert.equal(restored.body().bot.revision, loaded + 3)
    const beforeRestore = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ groups: [], revision: loaded + 2 })
    beforeRestore.assertStatus(409)

    // Without a revision (API clients) the last writer wins.
    const blind = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .bearerToken(who.token)
      .json({ groups: [] })
    blind.assertStatus(200)
    assert.equal(blind.body().bot.revision, loaded + 4)
  })

  test('workflow: a save on a stale revision answers 409 and changes nothing', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const created = await client
      .post('/api/v1/workflows')
      .bearerToken(who.token)
      .json({ workspaceId: who.workspaceId, name: 'Twice' })
    created.assertStatus(201)
    const workflow = created.body().workflow
    const loaded = workflow.revision as number
    assert.isNumber(loaded)

    const first = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .bearerToken(who.token)
      .json({ name: 'From A', revision: loaded })
    first.assertStatus(200)
    assert.equal(first.body().workflow.revision, loaded + 1)

    // The copilot's change, or a second tab, lands first: the stale editor is refused.
    const stale = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .bearerToken(who.token)
      .json({ name: 'From B', updatedBy: 'assistant', revision: loaded })
    stale.assertStatus(409)
    const after = await client.get(`/api/v1/workflows/${workflow.id}`).bearerToken(who.token)
    assert.equal(after.body().workflow.name, 'From A')
    assert.equal(after.body().workflow.revision, loaded + 1)

    const kept = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .bearerToken(who.token)
      .json({ name: 'From B', revision: loaded + 1 })
    kept.assertStatus(200)
    assert.equal(kept.body().workflow.name, 'From B')

    // A restore of a history version raises it as well.
    const versions = await client
      .get(`/api/v1/workflows/${workflow.id}/versions`)
      .bearerToken(who.token)
    const oldest = versions.body().versions.at(-1)
    const restored = await client
      .post(`/api/v1/workflows/${workflow.id}/versions/${oldest.id}/restore`)
      .bearerToken(who.token)
    restored.assertStatus(200)
    assert.equal(restored.body().workflow.revision, loaded + 3)
    const beforeRestore = await client
      .patch(`/api/v1/workflows/${workflow.id}`)
      .bearerToken(who.token)
      .json({ name: 'Late', revision: loaded + 2 })
    beforeRestore.assertStatus(409)
  })
})
