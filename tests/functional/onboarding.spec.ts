import { test } from '@japa/runner'
import env from '#start/env'
import Bot from '#models/bot'
import User from '#models/user'
import Workflow from '#models/workflow'
import Workspace from '#models/workspace'
import WorkspaceInvitation from '#models/workspace_invitation'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateStore } from '#actions/knowledge/create_store'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/**
 * Onboarding (docs/onboarding.md): the tour completion flags, the getting-started
 * checklist read from the workspace's data, and the support widget's configuration, given
 * to the pages of paid workspaces only.
 */

/** env.set writes process.env, where undefined would become 'undefined': '' is unset. */
function setEnv(cleanup: (fn: () => void) => void, values: Record<string, string>) {
  for (const [key, value] of Object.entries(values)) {
    const before = env.get(key as any) ?? ''
    env.set(key as any, value as any)
    cleanup(() => env.set(key as any, before as any))
  }
}

/** The smallest bot file the import takes: one group greeting the visitor. */
function helloBot() {
  return {
    version: '6',
    name: 'Helper',
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
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings: {},
  }
}

async function setWorkspacePlan(workspace: Workspace, plan: Workspace['plan']) {
  workspace.plan = plan
  await workspace.save()
}

test.group('Onboarding: tour flags', () => {
  test('each flag is saved and merged with the others; a non-boolean is refused', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const first = await client
      .post('/api/updateTourStatus')
      .json({ workflowTourCompleted: true })
      .loginAs(user)
      .withCsrfToken()
    first.assertStatus(200)
    const second = await client
      .post('/api/updateTourStatus')
      .json({ vectorTourCompleted: true })
      .loginAs(user)
      .withCsrfToken()
    second.assertBody({ tourStatus: { workflowTourCompleted: true, vectorTourCompleted: true } })
    await user.refresh()
    assert.deepEqual(user.tourStatus, { workflowTourCompleted: true, vectorTourCompleted: true })

    const bad = await client
      .post('/api/updateTourStatus')
      .json({ botTourCompleted: 'maybe' })
      .loginAs(user)
      .withCsrfToken()
    bad.assertStatus(422)

    const page = await client.get('/bots').withInertia().loginAs(user)
    assert.deepEqual(page.inertiaProps.user.tourStatus, {
      workflowTourCompleted: true,
      vectorTourCompleted: true,
    })
  })

  test('signed out, the flags cannot be written', async ({ client }) => {
    const response = await client
      .post('/api/updateTourStatus')
      .header('Accept', 'application/json')
      .json({ dashboardTourCompleted: true })
      .withCsrfToken()
    response.assertStatus(401)
  })
})

test.group('Onboarding: checklist', () => {
  test('each step is done once the workspace has what it asks for', async ({ client, assert }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    await setWorkspacePlan(workspace, 'UNLIMITED')
    const read = async () => {
      const response = await client.get('/api/onboarding/checklist').loginAs(user)
      response.assertStatus(200)
      return response.body()
    }

    const empty = await read()
    assert.deepEqual(
      empty.items.map((i: any) => [i.id, i.done]),
      [
        ['createBot', false],
        ['publishBot', false],
        ['createWorkflow', false],
        ['activateWorkflow', false],
        ['createKnowledgeStore', false],
        ['inviteMember', false],
      ]
    )
    assert.equal(empty.completed, 0)
    assert.equal(empty.total, 6)
    assert.isFalse(empty.dismissed)

    const token = (await new CreateApiToken().handle(user, `onboarding-${Date.now()}`)).value
    const bot = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: helloBot() })
    bot.assertStatus(201)
    let now = await read()
    assert.deepEqual(
      now.items.filter((i: any) => i.done).map((i: any) => i.id),
      ['createBot']
    )

    ;(
      await client.post(`/api/v1/bots/${bot.body().bot.id}/publish`).bearerToken(token)
    ).assertStatus(200)
    const workflow = await client
      .post('/api/v1/workflows')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, name: 'Follow-up' })
    workflow.assertStatus(201)
    now = await read()
    assert.deepEqual(
      now.items.filter((i: any) => i.done).map((i: any) => i.id),
      ['createBot', 'publishBot', 'createWorkflow']
    )

    await Workflow.query().where('id', workflow.body().workflow.id).update({ isActive: true })
    await new CreateStore().handle(user, workspace, { name: 'Handbook' })
    await WorkspaceInvitation.create({
      workspaceId: workspace.id,
      email: uniqueEmail('teammate'),
      role: 'MEMBER',
    })
    now = await read()
    assert.equal(now.completed, 6)
    assert.deepEqual(Object.fromEntries(now.items.map((i: any) => [i.id, i.href])), {
      createBot: '/bots',
      publishBot: '/bots',
      createWorkflow: '/workflows',
      activateWorkflow: '/workflows',
      createKnowledgeStore: '/vectors',
      inviteMember: '/settings/workspace/member',
    })

    // Archived bots do not count.
    await Bot.query().where('workspace_id', workspace.id).update({ isArchived: true })
    now = await read()
    assert.isFalse(now.items.find((i: any) => i.id === 'createBot').done)
  })

  test('dismissing it is kept on the user and sent to the pages', async ({ client, assert }) => {
    const user = await createUser()
    const dismissed = await client
      .post('/api/onboarding/checklist/dismiss')
      .loginAs(user)
      .withCsrfToken()
    dismissed.assertStatus(200)
    const fresh = await User.findOrFail(user.id)
    assert.isNotNull(fresh.onboardingChecklistDismissedAt)
    const checklist = await client.get('/api/onboarding/checklist').loginAs(user)
    assert.isTrue(checklist.body().dismissed)
    const page = await client.get('/bots').withInertia().loginAs(user)
    assert.isTrue(page.inertiaProps.user.onboardingChecklistDismissed)
  })
})

test.group('Onboarding: support widget', () => {
  test('paid workspaces get the configured bot with the prefill; Free and unconfigured do not', async ({
    client,
    assert,
    cleanup,
  }) => {
    const user = await createUser({ name: 'Ada  Lovelace King' })
    user.image = 'https://cdn.example.com/ada.png'
    await user.save()
    const workspace = await firstWorkspaceOf(user)
    const props = async () =>
      (await client.get('/bots').withInertia().loginAs(user)).inertiaProps.supportWidget

    setEnv(cleanup, { SUPPORT_BOT_PUBLIC_ID: '', SUPPORT_VIEWER_URL: '' })
    await setWorkspacePlan(workspace, 'STANDARD')
    assert.isNull(await props())

    setEnv(cleanup, {
      SUPPORT_BOT_PUBLIC_ID: 'support-bot',
      SUPPORT_VIEWER_URL: 'https://bots.example.com/',
    })
    assert.deepEqual(await props(), {
      publicId: 'support-bot',
      viewerUrl: 'https://bots.example.com',
      prefilledVariables: {
        userId: user.id,
        firstName: 'Ada',
        email: user.email,
        avatarUrl: 'https://cdn.example.com/ada.png',
        planLabel: 'Standard',
        workspaceId: workspace.id,
      },
    })

    // The builder's pages may run that one script of the viewer host, nothing else of it.
    const csp = (await client.get('/bots').loginAs(user)).header('content-security-policy')
    assert.match(csp ?? '', /script-src [^;]*https:\/\/bots\.example\.com\/embed\.js/)

    await setWorkspacePlan(workspace, 'FREE')
    assert.isNull(await props())
  })
})
