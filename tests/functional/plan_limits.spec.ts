import { test } from '@japa/runner'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import Workflow from '#models/workflow'
import Workspace from '#models/workspace'
import WorkspaceInvitation from '#models/workspace_invitation'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateBot } from '#actions/bots/create_bot'
import { DuplicateBot } from '#actions/bots/duplicate_bot'
import { CreateBotFromTemplate } from '#actions/bots/create_bot_from_template'
import { importBot } from '#shared/bot/parse'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/**
 * Plan limits on every path (docs/security.md, "Plan limits"): what an archive, an import,
 * a duplicate, a template or a burst of concurrent requests used to let through.
 */

async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
}

async function setup(plan: User['plan'] = 'FREE') {
  const user = await createUser()
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace, token: await tokenFor(user) }
}

function botFile(name = 'Imported') {
  return {
    version: '6',
    name,
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
    theme: {},
    settings: {},
  }
}

function workflowFile() {
  return {
    name: 'Follow-up',
    blocks: [
      {
        id: 'trigger',
        type: 'manual-trigger',
        graphCoordinates: { x: 0, y: 0 },
        outgoingEdgeId: 'e1',
      },
      {
        id: 'remember',
        type: 'workflow-set-variable',
        graphCoordinates: { x: 300, y: 0 },
        options: { variableId: 'v1', value: 'x' },
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'remember' } }],
    variables: [{ id: 'v1', name: 'Order' }],
    settings: {},
  }
}

const activeBots = (workspaceId: string) =>
  Bot.query().where('workspace_id', workspaceId).where('is_archived', false)

test.group('Plan limits on every path', () => {
  test('archive, create another, unarchive: refused on a 1-bot plan (API and dashboard)', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup('FREE')
    const first = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: botFile('First') })
    first.assertStatus(201)
    const firstId = first.body().bot.id
    ;(
      await client.patch(`/api/v1/bots/${firstId}`).bearerToken(token).json({ isArchived: true })
    ).assertStatus(200)
    const second = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: botFile('Second') })
    second.assertStatus(201)

    const api = await client
      .patch(`/api/v1/bots/${firstId}`)
      .bearerToken(token)
      .json({ isArchived: false })
    api.assertStatus(403)
    api.assertBodyContains({ message: 'Bot limit reached' })

    const dashboard = await client
      .patch(`/bots/${firstId}`)
      .json({ isArchived: false })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    assert.notEqual(dashboard.status(), 200)
    assert.isTrue((await Bot.findOrFail(firstId)).isArchived)
    assert.lengthOf(await activeBots(workspace.id), 1)

    // With room again (the other one archived), the bot comes back.
    await Bot.query().where('id', second.body().bot.id).update({ is_archived: true })
    ;(
      await client.patch(`/api/v1/bots/${firstId}`).bearerToken(token).json({ isArchived: false })
    ).assertStatus(200)
  })

  test('concurrent imports, duplicates and template uses give one bot on a 1-bot plan', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup('FREE')
    // Every way in at once: API import, file import, template, new bot.
    const settled = await Promise.allSettled([
      ...Array.from({ length: 3 }, (_, i) =>
        client
          .post('/api/v1/bots')
          .bearerToken(token)
          .json({ workspaceId: workspace.id, bot: botFile(`Import ${i}`) })
          .then((r) => (r.status() === 201 ? r : Promise.reject(r.status())))
      ),
      new CreateBot().handle(user, workspace, { content: importBot(botFile('File')) }),
      new CreateBot().handle(user, workspace, { content: importBot(botFile('File 2')) }),
      new CreateBotFromTemplate().handle(user, workspace, { templateId: 'quiz' }),
      new CreateBotFromTemplate().handle(user, workspace, { templateId: 'quiz' }),
      new CreateBot().handle(user, workspace, { name: 'Scratch' }),
    ])
    assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 1)
    assert.lengthOf(await activeBots(workspace.id), 1)

    const [original] = await activeBots(workspace.id)
    const duplicate = await client
      .post(`/bots/${original.id}/duplicate`)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    assert.notEqual(duplicate.status(), 200)
    const template = await client
      .post('/bots/templates/quiz')
      .form({})
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    assert.notEqual(template.status(), 200)
    assert.lengthOf(await activeBots(workspace.id), 1)

    // BASIC allows 10: from 9, five concurrent duplicates make one.
    await setUserPlan(user, 'BASIC')
    await workspace.refresh()
    for (let i = 0; i < 8; i++) {
      await new CreateBot().handle(user, workspace, { name: `Bot ${i}` })
    }
    const copies = await Promise.allSettled(
      Array.from({ length: 5 }, () => new DuplicateBot().handle(user, workspace, original))
    )
    assert.equal(copies.filter((s) => s.status === 'fulfilled').length, 1)
    assert.lengthOf(await activeBots(workspace.id), 10)
  })

  test('concurrent publishes publish one bot on a 1-publish plan', async ({ client, assert }) => {
    const { user, workspace, token } = await setup('BASIC')
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      const created = await client
        .post('/api/v1/bots')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, bot: botFile(`Bot ${i}`) })
      ids.push(created.body().bot.id)
    }
    await setUserPlan(user, 'FREE')
    const published = await Promise.all(
      ids.map((id) => client.post(`/api/v1/bots/${id}/publish`).bearerToken(token))
    )
    assert.deepEqual(published.map((r) => r.status()).sort(), [200, 403, 403, 403])
    assert.lengthOf(await PublishedBot.query().whereIn('bot_id', ids), 1)
  })

  test('concurrent workflow creates, duplicates and unarchives stop at workflowCreation', async ({
    client,
    assert,
  }) => {
    const { workspace, token } = await setup('FREE')
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        client
          .post('/api/v1/workflows')
          .bearerToken(token)
          .json({ workspaceId: workspace.id, workflow: workflowFile() })
      )
    )
    assert.deepEqual(created.map((r) => r.status()).sort(), [201, 403, 403, 403, 403])
    const [only] = await Workflow.query().where('workspace_id', workspace.id)
    const copies = await Promise.all(
      Array.from({ length: 3 }, () =>
        client.post(`/api/v1/workflows/${only.id}/duplicate`).bearerToken(token)
      )
    )
    assert.deepEqual(
      copies.map((r) => r.status()),
      [403, 403, 403]
    )

    // Archive it, create another, then bring both archived ones back at once: one fits.
    await client.patch(`/api/v1/workflows/${only.id}`).bearerToken(token).json({ isArchived: true })
    const other = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, workflow: workflowFile() })
    other.assertStatus(201)
    const back = await client
      .patch(`/api/v1/workflows/${only.id}`)
      .bearerToken(token)
      .json({ isArchived: false })
    back.assertStatus(403)
    back.assertBodyContains({ message: 'Workflow limit reached' })
    const live = await Workflow.query()
      .where('workspace_id', workspace.id)
      .where('is_archived', false)
    assert.lengthOf(live, 1)
  })

  test('concurrent activations activate one workflow on a 1-active plan', async ({
    client,
    assert,
  }) => {
    const { user, workspace, token } = await setup('BASIC')
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      const created = await client
        .post('/api/v1/workflows')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, workflow: workflowFile() })
      created.assertStatus(201)
      ids.push(created.body().workflow.id)
      ;(await client.post(`/api/v1/workflows/${ids[i]}/publish`).bearerToken(token)).assertStatus(
        200
      )
    }
    await setUserPlan(user, 'FREE')
    const activated = await Promise.all(
      ids.map((id) => client.post(`/api/v1/workflows/${id}/activate`).bearerToken(token))
    )
    assert.deepEqual(activated.map((r) => r.status()).sort(), [200, 403, 403, 403])
    const active = await Workflow.query()
      .where('workspace_id', workspace.id)
      .where('is_active', true)
    assert.lengthOf(active, 1)
  })

  test('concurrent workspace creations and invitations stop at the plan limits', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await setup('BASIC')
    // BASIC: 2 workspaces (the first exists), 2 members (the owner is one).
    const made = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        client
          .post('/workspaces')
          .json({ name: `Team ${i}` })
          .loginAs(user)
          .withCsrfToken()
          .redirects(0)
      )
    )
    assert.isAtLeast(made.length, 4)
    assert.lengthOf(await Workspace.query().where('created_by', user.id), 2)

    await Promise.all(
      Array.from({ length: 4 }, () =>
        client
          .post(`/workspaces/${workspace.id}/invitations`)
          .json({ email: uniqueEmail('invitee') })
          .loginAs(user)
          .withCsrfToken()
          .redirects(0)
      )
    )
    const members = await WorkspaceMember.query().where('workspace_id', workspace.id)
    const invitations = await WorkspaceInvitation.query().where('workspace_id', workspace.id)
    assert.equal(members.length + invitations.length, 2)
  })
})
