import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Plan from '#models/plan'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { CLI_ACTOR, setPlan } from '#actions/admin/administer_plans'
import { planFor } from '#services/capabilities'
import { runWithContext } from '#services/runner_context'
import { aiCallsThisMonth } from '#services/ai/ai_calls'
import { definePlugin } from '#plugins/define_plugin'
import { DEFAULT_PLANS, UNLIMITED, type PlanLimits } from '#shared/plans'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import { tokenFor, botFile } from '#tests/functional/plan_fixtures'

/**
 * One plan rule (docs/security.md, "One plan rule"): inside a workspace its own plan
 * applies to everyone, and `planFor` is the one place that says so. Each limit is driven
 * through the path that enforces it, by the workspace's creator and by a member whose
 * account plans differ from the workspace's, and must stop exactly where planFor says.
 * Before this rule the creator was judged by their account plan, the runtime by the
 * creator's, the editor by the workspace's: the same workspace answered three ways.
 */

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

/** A block that calls a model: what it asks of the AI port is what every AI plugin asks. */
const aiProbe = definePlugin({
  id: 'ai-calls-probe',
  name: 'AI calls probe',
  fullName: 'AI calls probe',
  tags: [],
  category: 'integration',
  scope: 'user',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {},
})

/** Small limits on the workspace's plan, so that each one is reached in a few requests. */
const SMALL: PlanLimits = {
  vectorLimit: 1,
  userCopilotLimit: 2,
  workflowCreation: 2,
  workflowActivation: 1,
  botCreation: 3,
  botPublish: 2,
  multipleUser: 3,
  multipleWorkspace: 2,
  conversations: 3,
  aiCalls: 1,
}

interface World {
  client: any
  workspace: Workspace
  owner: User
  member: User
  tokens: Map<User, string>
  /** The actors taking turns on every path. */
  actors: User[]
  bots: string[]
  workflows: string[]
  publicId?: string
}

/** What planFor says applies to `actor` in the workspace (null: outside any workspace). */
async function limitFor(actor: User, workspace: Workspace | null, key: keyof PlanLimits) {
  return (await planFor(actor, workspace)).plan.limits[key]
}

/**
 * Sends `attempt(i)` until it is refused (or `max` times); returns how many succeeded.
 * A refusal must be the plan's (403), and every later attempt must be refused too.
 */
async function untilRefused(
  max: number,
  attempt: (i: number) => Promise<{ ok: boolean; refused: boolean; detail: string }>,
  assert: any
) {
  let ok = 0
  let refusedAt = -1
  for (let i = 0; i < max; i++) {
    const result = await attempt(i)
    if (result.ok) {
      assert.equal(refusedAt, -1, `attempt ${i} succeeded after a refusal`)
      ok++
    } else {
      assert.isTrue(
        result.refused,
        `attempt ${i} failed without the plan's refusal: ${result.detail}`
      )
      if (refusedAt === -1) refusedAt = i
    }
  }
  return ok
}

const status = (response: any) => ({
  ok: response.status() < 400,
  refused: response.status() === 403,
  detail: `${response.status()} ${response.text().slice(0, 200)}`,
})

/**
 * Every limit of the plans, with the path that enforces it. A limit added to the plans
 * without a path here fails the first test; `null` marks a limit nothing enforces, with the
 * reason (the test checks that no code reads it).
 */
const PATHS: Record<
  keyof PlanLimits,
  ((world: World, assert: any) => Promise<void>) | { notEnforced: string; readBy: string[] }
> = {
  async botCreation(world, assert) {
    const before = await db.from('bots').where('workspace_id', world.workspace.id).count('* as n')
    const used = Number(before[0].n)
    const limit = await limitFor(world.owner, world.workspace, 'botCreation')
    const ok = await untilRefused(
      limit - used + 2,
      async (i) => {
        const actor = world.actors[i % world.actors.length]
        const response = await world.client
          .post('/api/v1/bots')
          .bearerToken(world.tokens.get(actor)!)
          .json({ workspaceId: world.workspace.id, bot: botFile(`Bot ${i}`) })
        if (response.status() === 201) world.bots.push(response.body().bot.id)
        return status(response)
      },
      assert
    )
    assert.equal(ok + used, limit)
  },
  async botPublish(world, assert) {
    const limit = await limitFor(world.member, world.workspace, 'botPublish')
    assert.isAbove(world.bots.length, limit, 'more bots than publish slots')
    const ok = await untilRefused(
      world.bots.length,
      async (i) => {
        const actor = world.actors[i % world.actors.length]
        const response = await world.client
          .post(`/api/v1/bots/${world.bots[i]}/publish`)
          .bearerToken(world.tokens.get(actor)!)
        if (response.status() === 200 && !world.publicId)
          world.publicId = response.body().bot.publicId
        return status(response)
      },
      assert
    )
    assert.equal(ok, limit)
  },
  async workflowCreation(world, assert) {
    const limit = await limitFor(world.owner, world.workspace, 'workflowCreation')
    const ok = await untilRefused(
      limit + 2,
      async (i) => {
        const actor = world.actors[i % world.actors.length]
        const response = await world.client
          .post('/api/v1/workflows')
          .bearerToken(world.tokens.get(actor)!)
          .json({ workspaceId: world.workspace.id, workflow: workflowFile() })
        if (response.status() === 201) world.workflows.push(response.body().workflow.id)
        return status(response)
      },
      assert
    )
    assert.equal(ok, limit)
  },
  async workflowActivation(world, assert) {
    const limit = await limitFor(world.member, world.workspace, 'workflowActivation')
    for (const id of world.workflows) {
      const published = await world.client
        .post(`/api/v1/workflows/${id}/publish`)
        .bearerToken(world.tokens.get(world.owner)!)
      published.assertStatus(200)
    }
    const ok = await untilRefused(
      world.workflows.length,
      async (i) => {
        const actor = world.actors[i % world.actors.length]
        return status(
          await world.client
            .post(`/api/v1/workflows/${world.workflows[i]}/activate`)
            .bearerToken(world.tokens.get(actor)!)
        )
      },
      assert
    )
    assert.equal(ok, limit)
  },
  async vectorLimit(world, assert) {
    const limit = await limitFor(world.owner, world.workspace, 'vectorLimit')
    const ok = await untilRefused(
      limit + 2,
      async (i) => {
        const actor = world.actors[i % world.actors.length]
        return status(
          await world.client
            .post('/vectors')
            .loginAs(actor)
            .withSession({ currentWorkspaceId: world.workspace.id })
            .withCsrfToken()
            .accept('json')
            .json({ name: `Store ${i}`, chunkSize: 300, overlapSize: 30 })
        )
      },
      assert
    )
    assert.equal(ok, limit)
  },
  async multipleUser(world, assert) {
    // Seats: members and open invitations (the owner and the member hold two).
    const limit = await limitFor(world.owner, world.workspace, 'multipleUser')
    const ok = await untilRefused(
      limit,
      async () =>
        status(
          await world.client
            .post(`/workspaces/${world.workspace.id}/invitations`)
            .header('accept', 'application/json')
            .json({ email: uniqueEmail('seat') })
            .loginAs(world.owner)
            .withCsrfToken()
            .redirects(0)
        ),
      assert
    )
    assert.equal(ok + 2, limit)
  },
  async multipleWorkspace(world, assert) {
    // Outside any workspace: each person's account plan (planFor without a workspace).
    for (const actor of world.actors) {
      const limit = await limitFor(actor, null, 'multipleWorkspace')
      const created = await db.from('workspaces').where('created_by', actor.id).count('* as n')
      const used = Number(created[0].n)
      if (limit === UNLIMITED) {
        const made = await world.client
          .post('/workspaces')
          .header('accept', 'application/json')
          .json({ name: 'Another team' })
          .loginAs(actor)
          .withCsrfToken()
          .redirects(0)
        assert.isBelow(made.status(), 400)
        continue
      }
      const ok = await untilRefused(
        Math.max(0, limit - used) + 1,
        async (i) =>
          status(
            await world.client
              .post('/workspaces')
              .header('accept', 'application/json')
              .json({ name: `Team ${i}` })
              .loginAs(actor)
              .withCsrfToken()
              .redirects(0)
          ),
        assert
      )
      assert.equal(ok + used, limit, `workspaces of ${actor.email}`)
    }
  },
  async conversations(world, assert) {
    const limit = await limitFor(world.owner, world.workspace, 'conversations')
    forgetChatLimits()
    let chats = 0
    for (let i = 0; i < limit + 2; i++) {
      const response = await world.client
        .post(`/api/v1/typebots/${world.publicId}/startChat`)
        .json({ message: `hi ${i}` })
      response.assertStatus(200)
      if (!response.body().chatLimitExceededError) chats++
    }
    assert.equal(chats, limit)
    const period = new Date().toISOString().slice(0, 7)
    const row = await db
      .from('chat_usage')
      .where({ workspace_id: world.workspace.id, period })
      .first()
    assert.equal(Number(row?.chats ?? 0), limit)
    // The Billing & Usage tab shows the limit that was enforced.
    for (const actor of world.actors) {
      const tab = await world.client
        .get('/settings/account/billing')
        .loginAs(actor)
        .withSession({ currentWorkspaceId: world.workspace.id })
        .withInertia()
      assert.equal(tab.inertiaProps.billing.chats.limit, limit)
      assert.equal(tab.inertiaProps.plan.name, (await planFor(actor, world.workspace)).plan.name)
    }
  },
  async userCopilotLimit(world, assert) {
    // What the copilot counts answered messages against, for each person in the workspace.
    for (const actor of world.actors) {
      const response = await world.client
        .post(`/api/workflows/${world.workflows[0]}/copilot`)
        .loginAs(actor)
        .withCsrfToken()
      response.assertStatus(200)
      assert.equal(
        response.body().usage.messagesLimit,
        await limitFor(actor, world.workspace, 'userCopilotLimit')
      )
    }
  },
  async aiCalls(world, assert) {
    // Every block's and node's model call asks its runner context's AI port for a place
    // before it is made (app/services/ai/ai_calls.ts). More calls than places, at once:
    // exactly the limit's number are made.
    const limit = await limitFor(world.owner, world.workspace, 'aiCalls')
    let made = 0
    const call = () =>
      runWithContext(
        async (ctx) => {
          await ctx.ai.ensureCredits()
          made++
        },
        {
          plugin: aiProbe,
          workspaceId: world.workspace.id,
          ownerId: world.owner.id,
          variables: [],
          options: {},
        }
      )
    const outputs = await Promise.all(Array.from({ length: limit + 3 }, call))
    assert.equal(made, limit)
    const refused = outputs.filter((output) => output.aiCreditLimitExceeded)
    assert.lengthOf(refused, 3)
    for (const output of refused) {
      assert.equal(
        output.logs[0].description,
        `This workspace has used its ${limit} AI calls of the month`
      )
    }
    assert.equal(await aiCallsThisMonth(world.workspace.id), limit)
  },
}

test.group('One plan rule', (group) => {
  let saved: { limits: PlanLimits; features: Record<string, boolean> } | undefined
  group.each.teardown(async () => {
    if (!saved) return
    const row = await Plan.findOrFail('BASIC')
    row.limits = saved.limits
    row.features = saved.features as any
    await row.save()
    saved = undefined
  })

  test('the list of limits is every limit of the plans', async ({ assert }) => {
    assert.sameMembers(Object.keys(PATHS), Object.keys(DEFAULT_PLANS[0].limits))
    for (const [key, path] of Object.entries(PATHS)) {
      if (typeof path === 'function') continue
      // Only the files listed read a limit nothing enforces (a new reader needs a path above).
      const { stdout } = await promisify(execFile)(
        'git',
        [
          'grep',
          '-l',
          `\\b${key}\\b`,
          '--',
          'app',
          'start',
          'resources',
          'plugins',
          ':!resources/locales',
        ],
        { cwd: app.makePath() }
      ).catch((error) => ({ stdout: error.stdout ?? '' }))
      assert.sameMembers(
        stdout.split('\n').filter(Boolean),
        path.readBy,
        `${key} is read outside the plans: give it a path in PATHS`
      )
    }
  })

  test('every limit stops where planFor says, for the creator and a member alike', async ({
    client,
    assert,
  }) => {
    // The workspace's plan (BASIC, made small) differs from both people's account plans.
    const basic = await Plan.findOrFail('BASIC')
    saved = { limits: { ...basic.limits }, features: { ...basic.features } }
    basic.limits = { ...SMALL }
    basic.features = { ...basic.features, workspaceWithFolder: true }
    await basic.save()

    const owner = await createUser()
    await setUserPlan(owner, 'FREE')
    const workspace = await firstWorkspaceOf(owner)
    await setPlan(CLI_ACTOR, { type: 'workspace', model: workspace }, { plan: 'BASIC' })
    const member = await createUser()
    await setUserPlan(member, 'UNLIMITED')
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    const world: World = {
      client,
      workspace,
      owner,
      member,
      tokens: new Map([
        [owner, await tokenFor(owner)],
        [member, await tokenFor(member)],
      ]),
      actors: [owner, member],
      bots: [],
      workflows: [],
    }

    for (const actor of world.actors) {
      const decided = await planFor(actor, workspace)
      assert.equal(decided.plan.name, 'BASIC')
      assert.equal(decided.judgedBy, 'workspace')
      // The runtime's answer (no actor, by id) is the same.
      assert.deepEqual((await planFor(null, workspace.id)).plan, decided.plan)
    }

    // In an order that lets each path find what it needs (bots to publish, a workflow for
    // the copilot, a published bot to chat with).
    const order: (keyof PlanLimits)[] = [
      'botCreation',
      'botPublish',
      'workflowCreation',
      'workflowActivation',
      'vectorLimit',
      'multipleUser',
      'multipleWorkspace',
      'conversations',
      'userCopilotLimit',
      'aiCalls',
    ]
    assert.sameMembers(order, Object.keys(PATHS))
    for (const key of order) {
      const path = PATHS[key]
      if (typeof path === 'function') await path(world, assert)
    }

    // Features, pages and the API say the same as planFor, for both people.
    for (const actor of world.actors) {
      const decided = (await planFor(actor, workspace)).plan
      const dashboard = await client
        .get('/bots')
        .loginAs(actor)
        .withSession({ currentWorkspaceId: workspace.id })
        .withInertia()
      assert.equal(dashboard.inertiaProps.canUseFolders, decided.features.workspaceWithFolder)
      assert.equal(dashboard.inertiaProps.planUsage.plan, decided.name)
      const listed = await client.get('/api/v1/workspaces').bearerToken(world.tokens.get(actor)!)
      listed.assertStatus(200)
      const entry = listed.body().workspaces.find((w: any) => w.id === workspace.id)
      assert.equal(entry.plan, decided.name)
    }
  }).timeout(240_000)

  test('workspace:plan EMAIL sets what is enforced: the API, the limits and the runtime agree', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const token = await tokenFor(owner)
    const kernel = await app.container.make('ace')
    kernel.ui.switchMode('raw')
    // As on an install without billing: the account and its workspace on UNLIMITED.
    assert.equal((await kernel.exec('workspace:plan', [workspace.id, 'UNLIMITED'])).exitCode, 0)
    assert.equal((await kernel.exec('workspace:plan', [owner.email, 'UNLIMITED'])).exitCode, 0)
    const member = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    for (const name of ['one', 'two']) {
      const created = await client
        .post('/api/v1/bots')
        .bearerToken(token)
        .json({ workspaceId: workspace.id, bot: botFile(name) })
      created.assertStatus(201)
    }

    assert.equal((await kernel.exec('workspace:plan', [owner.email, 'FREE'])).exitCode, 0)
    const listed = await client.get('/api/v1/workspaces').bearerToken(token)
    const entry = listed.body().workspaces.find((w: any) => w.id === workspace.id)
    assert.equal(entry.plan, 'FREE')
    assert.equal((await planFor(null, workspace.id)).plan.name, 'FREE')
    const third = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: botFile('three') })
    third.assertStatus(403)
    // The member too: one plan for everyone in the workspace.
    const byMember = await client
      .post('/api/v1/bots')
      .bearerToken(await tokenFor(member))
      .json({ workspaceId: workspace.id, bot: botFile('four') })
    byMember.assertStatus(403)
    // The command shows what it changed, and what applies.
    const shown = await kernel.exec('workspace:plan', [owner.email])
    assert.equal(shown.exitCode, 0)
    const logs = kernel.ui.logger.getLogs().map((line) => line.message)
    assert.isTrue(
      logs.some((line) => line.includes(`workspace ${workspace.name} (${workspace.id}): FREE`)),
      logs.join('\n')
    )
  })
})
