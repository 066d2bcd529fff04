import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import env from '#start/env'
import AdminAuditLog from '#models/admin_audit_log'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import CreateWorkspace from '#actions/workspaces/create_workspace'
import { aiCreditsText } from '#services/ai/credits'
import { LATEST_PLAN_END } from '#services/plans'
import { createUser, firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/*
 * Plans on a self-hosted install and for admins (docs/architecture.md, "Plans without
 * billing"): the default plan follows billing, /admin/workspaces and `node ace
 * workspace:plan` change plans, suspensions and credits, and every change is audited.
 */

type EnvKey =
  | 'DEFAULT_WORKSPACE_PLAN'
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'STRIPE_PRICE_STANDARD_MONTHLY'
  | 'STRIPE_API_URL'

/**
 * Billing configured (docs/billing.md); the API URL refuses connections at once, so that
 * no test here reaches api.stripe.com (tests/functional/billing.spec.ts talks to a stand-in).
 */
const STRIPE_ON = {
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  STRIPE_PRICE_STANDARD_MONTHLY: 'price_x',
  STRIPE_API_URL: 'http://127.0.0.1:9',
}

/** Runs `fn` with these variables (undefined: unset), then puts the old values back. */
async function withEnv<T>(vars: Partial<Record<EnvKey, string | undefined>>, fn: () => Promise<T>) {
  const saved = Object.keys(vars).map((key) => [key, env.get(key as EnvKey)] as const)
  const put = (key: string, value: string | undefined) => {
    env.set(key as EnvKey, value as any)
    // Env.set writes process.env too, where undefined would become the text "undefined".
    if (value === undefined) delete process.env[key]
  }
  for (const [key, value] of Object.entries(vars)) put(key, value)
  try {
    return await fn()
  } finally {
    for (const [key, value] of saved) put(key, value as string | undefined)
  }
}

async function admin() {
  // ADMIN_EMAILS=admin@example.com in .env.test
  return (await new FindOrCreateUser().handle('admin@example.com')).user
}

async function ace(args: string[]) {
  const kernel = await app.container.make('ace')
  kernel.ui.switchMode('raw')
  const command = await kernel.exec('workspace:plan', args)
  return { exitCode: command.exitCode, logs: kernel.ui.logger.getLogs().map((l) => l.message) }
}

test.group('Plans: the default plan follows billing', () => {
  test('without Stripe, new accounts and workspaces are UNLIMITED', async ({ assert }) => {
    await withEnv({ DEFAULT_WORKSPACE_PLAN: undefined, STRIPE_SECRET_KEY: undefined }, async () => {
      const user = await createUser()
      const workspace = await firstWorkspaceOf(user)
      assert.equal(user.plan, 'UNLIMITED')
      assert.equal(workspace.plan, 'UNLIMITED')
      // A second workspace: UNLIMITED allows it (FREE allows one).
      const second = await new CreateWorkspace().handle(user, { name: 'Second' })
      assert.equal(second.plan, 'UNLIMITED')
    })
  })

  test('with Stripe configured the default FREE holds', async ({ assert }) => {
    await withEnv({ DEFAULT_WORKSPACE_PLAN: undefined, ...STRIPE_ON }, async () => {
      const user = await createUser()
      assert.equal(user.plan, 'FREE')
      assert.equal((await firstWorkspaceOf(user)).plan, 'FREE')
    })
  })

  test('DEFAULT_WORKSPACE_PLAN wins over both', async ({ assert }) => {
    await withEnv({ DEFAULT_WORKSPACE_PLAN: 'BASIC', STRIPE_SECRET_KEY: undefined }, async () => {
      const user = await createUser()
      assert.equal(user.plan, 'BASIC')
      assert.equal((await firstWorkspaceOf(user)).plan, 'BASIC')
    })
  })

  test('the Plans page says when billing is off', async ({ client, assert }) => {
    const user = await createUser()
    await withEnv({ STRIPE_SECRET_KEY: undefined }, async () => {
      const page = await client.get('/bots/plans').loginAs(user).withInertia()
      page.assertStatus(200)
      assert.isFalse(page.inertiaProps.billingEnabled)
    })
    // A secret key alone is not enough: without the webhook secret nothing could be trusted.
    await withEnv({ STRIPE_SECRET_KEY: 'sk_test_x' }, async () => {
      const page = await client.get('/bots/plans').loginAs(user).withInertia()
      assert.isFalse(page.inertiaProps.billingEnabled)
    })
    await withEnv(STRIPE_ON, async () => {
      const page = await client.get('/bots/plans').loginAs(user).withInertia()
      assert.isTrue(page.inertiaProps.billingEnabled)
    })
  })
})

test.group('Plans: /admin/workspaces', () => {
  test('non-admins get 403 on every route and change nothing', async ({ client, assert }) => {
    const someone = await createUser()
    const workspace = await firstWorkspaceOf(someone)
    const before = await AdminAuditLog.query().count('* as total').first()
    const calls = [
      client.get('/admin/workspaces'),
      client.put(`/admin/workspaces/${workspace.id}/plan`).json({ plan: 'UNLIMITED' }),
      client.put(`/admin/workspaces/${workspace.id}/suspended`).json({ suspended: true }),
      client.put(`/admin/users/${someone.id}/plan`).json({ plan: 'UNLIMITED' }),
      client.post(`/admin/users/${someone.id}/ai-credits`).json({ amount: 100 }),
    ]
    for (const call of calls) {
      const response = await call
        .loginAs(someone)
        .withCsrfToken()
        .header('accept', 'application/json')
        .redirects(0)
      response.assertStatus(403)
    }
    await workspace.refresh()
    await someone.refresh()
    assert.equal(workspace.plan, 'FREE')
    assert.isFalse(!!workspace.isSuspended)
    assert.equal(someone.plan, 'FREE')
    assert.equal(await aiCreditsText(someone.id), '10.000000000')
    const after = await AdminAuditLog.query().count('* as total').first()
    assert.equal(Number(after!.$extras.total), Number(before!.$extras.total))
  })

  test('an admin finds workspaces and accounts with their usage', async ({ client, assert }) => {
    const owner = await createUser({ name: 'Searchable Person' })
    const workspace = await firstWorkspaceOf(owner)
    workspace.name = `Findme ${workspace.id}`
    await workspace.save()
    await client.post('/bots').loginAs(owner).withCsrfToken().form({ name: 'One bot' })

    const page = await client
      .get('/admin/workspaces')
      .qs({ q: `findme ${workspace.id}` })
      .loginAs(await admin())
      .withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('admin/workspaces')
    const rows = page.inertiaProps.workspaces as any[]
    assert.lengthOf(rows, 1)
    assert.equal(rows[0].id, workspace.id)
    assert.deepEqual(rows[0].owner, { id: owner.id, email: owner.email, plan: 'FREE' })
    assert.deepEqual(rows[0].usage.botCreation, { used: 1, limit: 1 })
    assert.deepEqual(rows[0].usage.multipleUser, { used: 1, limit: 2 })

    // Accounts by e-mail or name, with the workspaces they created against their plan.
    const byName = await client
      .get('/admin/workspaces')
      .qs({ q: owner.email.toUpperCase() })
      .loginAs(await admin())
      .withInertia()
    const users = byName.inertiaProps.users as any[]
    assert.lengthOf(users, 1)
    assert.equal(users[0].email, owner.email)
    assert.deepEqual(users[0].workspaces, { used: 1, limit: 1 })
    assert.equal(users[0].aiCredits, '10.000000000')
    // The owner's workspace matches too (by its creator's e-mail).
    assert.include(
      (byName.inertiaProps.workspaces as any[]).map((w) => w.id),
      workspace.id
    )
  })

  test('an admin sets plans, suspends and grants credits; each change is audited', async ({
    client,
    assert,
  }) => {
    const boss = await admin()
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const ends = DateTime.now().plus({ days: 40 }).toISODate()!
    const send = (request: ReturnType<typeof client.put>) =>
      request.loginAs(boss).withCsrfToken().redirects(0)

    ;(
      await send(
        client.put(`/admin/workspaces/${workspace.id}/plan`).json({
          plan: 'STANDARD',
          endsAt: ends,
        })
      )
    ).assertStatus(302)
    await workspace.refresh()
    assert.equal(workspace.plan, 'STANDARD')
    assert.equal(workspace.planEndsAt!.toUTC().toISODate(), ends)

    ;(
      await send(client.put(`/admin/users/${owner.id}/plan`).json({ plan: 'UNLIMITED' }))
    ).assertStatus(302)
    await owner.refresh()
    assert.equal(owner.plan, 'UNLIMITED')
    // No end date given: the plan's own duration (100 years) from now, kept within what
    // every database stores (MySQL/MariaDB TIMESTAMP ends in January 2038).
    assert.equal(owner.planEndsAt!.toUTC().toISO(), LATEST_PLAN_END.toISO())

    ;(
      await send(
        client.put(`/admin/workspaces/${workspace.id}/suspended`).json({
          suspended: true,
        })
      )
    ).assertStatus(302)
    await workspace.refresh()
    assert.isTrue(!!workspace.isSuspended)
    // The owner now lands on /suspended.
    const blocked = await client.get('/bots').loginAs(owner).redirects(0)
    assert.equal(blocked.header('location'), '/suspended')
    ;(
      await send(
        client.put(`/admin/workspaces/${workspace.id}/suspended`).json({
          suspended: false,
        })
      )
    ).assertStatus(302)
    await workspace.refresh()
    assert.isFalse(!!workspace.isSuspended)

    // Each write returns to the search it was made from.
    const fromSearch = await send(
      client.put(`/admin/workspaces/${workspace.id}/suspended`).json({ suspended: false })
    ).header('referer', `/admin/workspaces?q=${workspace.id}`)
    assert.equal(fromSearch.header('location'), `/admin/workspaces?q=${workspace.id}`)

    ;(
      await send(client.post(`/admin/users/${owner.id}/ai-credits`).json({ amount: 2.5 }))
    ).assertStatus(302)
    assert.equal(await aiCreditsText(owner.id), '12.500000000')

    const log = await AdminAuditLog.query()
      .whereIn('target_id', [workspace.id, owner.id])
      .orderBy('id', 'asc')
    assert.deepEqual(
      log.map((row) => [row.action, row.targetType, row.actorId, row.actorLabel]),
      [
        ['plan', 'workspace', boss.id, boss.email],
        ['plan', 'user', boss.id, boss.email],
        // An account's plan also sets the workspaces it created (what is enforced there).
        ['plan', 'workspace', boss.id, boss.email],
        ['suspend', 'workspace', boss.id, boss.email],
        ['unsuspend', 'workspace', boss.id, boss.email],
        ['ai_credits', 'user', boss.id, boss.email],
      ]
    )
    assert.equal((log[0].details.before as any).plan, 'FREE')
    const after = log[0].details.after as { plan: string; endsAt: string }
    assert.equal(after.plan, 'STANDARD')
    assert.equal(DateTime.fromISO(after.endsAt).toUTC().toISODate(), ends)
    assert.equal((log[2].details.after as any).plan, 'UNLIMITED')
    assert.deepEqual(log[5].details, { amount: '2.5', balance: '12.500000000' })

    // The page lists the changes, newest first.
    const page = await client.get('/admin/workspaces').loginAs(boss).withInertia()
    const audit = page.inertiaProps.audit as any[]
    assert.equal(audit[0].action, 'ai_credits')
    assert.equal(audit[0].targetLabel, owner.email)
  })

  test('bad input is refused: unknown plan, a past end date, zero credits, unknown ids', async ({
    client,
    assert,
  }) => {
    const boss = await admin()
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const json = (request: ReturnType<typeof client.put>) =>
      request.loginAs(boss).withCsrfToken().header('accept', 'application/json').redirects(0)

    ;(
      await json(client.put(`/admin/workspaces/${workspace.id}/plan`).json({ plan: 'GOLD' }))
    ).assertStatus(422)
    const past = DateTime.now().minus({ days: 2 }).toISODate()
    const pastResponse = await json(
      client.put(`/admin/workspaces/${workspace.id}/plan`).json({ plan: 'BASIC', endsAt: past })
    )
    pastResponse.assertStatus(422)
    const tooLate = await json(
      client.put(`/admin/workspaces/${workspace.id}/plan`).json({
        plan: 'BASIC',
        endsAt: '2040-01-01',
      })
    )
    tooLate.assertStatus(422)
    ;(
      await json(client.post(`/admin/users/${owner.id}/ai-credits`).json({ amount: 0 }))
    ).assertStatus(422)
    ;(await json(client.put('/admin/workspaces/nope/plan').json({ plan: 'BASIC' }))).assertStatus(
      404
    )
    ;(await json(client.post('/admin/users/nope/ai-credits').json({ amount: 1 }))).assertStatus(404)
    await workspace.refresh()
    assert.equal(workspace.plan, 'FREE')
    assert.equal(
      await AdminAuditLog.query()
        .where('target_id', workspace.id)
        .count('* as t')
        .first()
        .then((r) => Number(r!.$extras.t)),
      0
    )
  })

  test('an admin whose own workspace is suspended still reaches the admin page', async ({
    client,
  }) => {
    const boss = await admin()
    const own = await firstWorkspaceOf(boss)
    own.isSuspended = true
    await own.save()
    try {
      const page = await client.get('/admin/workspaces').loginAs(boss).redirects(0)
      page.assertStatus(200)
    } finally {
      own.isSuspended = false
      await own.save()
    }
  })
})

test.group('Plans: node ace workspace:plan', () => {
  test('sets a workspace plan by id and an account plan by e-mail, audited as cli', async ({
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)

    const byId = await ace([workspace.id, 'enterprize', '--ends', '2031-01-31'])
    assert.equal(byId.exitCode, 0)
    await workspace.refresh()
    assert.equal(workspace.plan, 'ENTERPRIZE')
    assert.equal(workspace.planEndsAt!.toUTC().toISODate(), '2031-01-31')

    const byEmail = await ace([owner.email.toUpperCase(), 'UNLIMITED'])
    assert.equal(byEmail.exitCode, 0)
    await owner.refresh()
    assert.equal(owner.plan, 'UNLIMITED')
    // The account and the workspaces it created: what is enforced there (planFor).
    await workspace.refresh()
    assert.equal(workspace.plan, 'UNLIMITED')
    assert.isTrue(
      byEmail.logs.some((line) =>
        line.includes(`workspace ${workspace.name} (${workspace.id}) is on UNLIMITED`)
      ),
      byEmail.logs.join('\n')
    )

    const log = await AdminAuditLog.query()
      .whereIn('target_id', [workspace.id, owner.id])
      .orderBy('id', 'asc')
    assert.deepEqual(
      log.map((row) => [row.action, row.targetType, row.actorId, row.actorLabel]),
      [
        ['plan', 'workspace', null, 'cli'],
        ['plan', 'user', null, 'cli'],
        ['plan', 'workspace', null, 'cli'],
      ]
    )
  })

  test('suspends, lifts and grants credits to the creator of a workspace', async ({ assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)

    assert.equal((await ace([workspace.id, '--suspend', '--credits', '5'])).exitCode, 0)
    await workspace.refresh()
    assert.isTrue(!!workspace.isSuspended)
    assert.equal(await aiCreditsText(owner.id), '15.000000000')

    assert.equal((await ace([workspace.id, '--unsuspend'])).exitCode, 0)
    await workspace.refresh()
    assert.isFalse(!!workspace.isSuspended)

    const actions = (
      await AdminAuditLog.query().whereIn('target_id', [workspace.id, owner.id]).orderBy('id')
    ).map((row) => row.action)
    assert.deepEqual(actions, ['suspend', 'ai_credits', 'unsuspend'])
  })

  test('refuses unknown targets and plans, and suspension of an account', async ({ assert }) => {
    const owner = await createUser()
    assert.equal((await ace([uniqueEmail('ghost'), 'BASIC'])).exitCode, 1)
    assert.equal((await ace([owner.email, 'GOLD'])).exitCode, 1)
    assert.equal((await ace([owner.email, '--suspend'])).exitCode, 1)
    // Without a change it shows the plans that apply, and changes nothing.
    assert.equal((await ace([owner.email])).exitCode, 0)
    assert.equal((await ace([owner.email, 'BASIC', '--ends', 'soon'])).exitCode, 1)
    await owner.refresh()
    assert.equal(owner.plan, 'FREE')
    assert.equal(
      await AdminAuditLog.query()
        .where('target_id', owner.id)
        .count('* as t')
        .first()
        .then((r) => Number(r!.$extras.t)),
      0
    )
  })

  test('an admin lifting an account plan unblocks its creator at once', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const create = (name: string) =>
      client
        .post('/bots')
        .loginAs(owner)
        .withCsrfToken()
        .header('accept', 'application/json')
        .form({ name })
        .redirects(0)
    await create('first')
    const refused = await create('second')
    assert.equal(refused.status(), 403)
    assert.equal((await ace([owner.email, 'BASIC'])).exitCode, 0)
    const allowed = await create('second')
    assert.equal(allowed.status(), 302)
  })
})

test.group('Plans: usage sent to the pages', () => {
  test('pages receive the counted limits, judged as the server judges', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await client.post('/bots').form({}).loginAs(owner).withCsrfToken().redirects(0)
    const page = await client.get('/bots').loginAs(owner).withInertia()
    const usage = page.inertiaProps.planUsage as any
    assert.equal(usage.plan, 'FREE')
    assert.equal(usage.judgedBy, 'workspace')
    assert.deepEqual(usage.usage.botCreation, { used: 1, limit: 1 })
    assert.deepEqual(usage.usage.multipleWorkspace, { used: 1, limit: 1 })
    assert.deepEqual(usage.usage.workflowCreation, { used: 0, limit: 1 })

    // The workspace's plan applies to the member and the creator alike; new workspaces
    // count against each person's account plan.
    const workspace = await firstWorkspaceOf(owner)
    const member = await createUser()
    await workspace.related('members').create({ userId: member.id, role: 'MEMBER' })
    await ace([workspace.id, 'STANDARD'])
    const asMember = await client
      .get('/bots')
      .loginAs(member)
      .withSession({ currentWorkspaceId: workspace.id })
      .withInertia()
    const memberUsage = asMember.inertiaProps.planUsage as any
    assert.equal(memberUsage.judgedBy, 'workspace')
    assert.deepEqual(memberUsage.usage.botCreation, { used: 1, limit: 50 })
    assert.deepEqual(memberUsage.usage.multipleWorkspace, { used: 1, limit: 1 })
    const asOwner = (await client.get('/bots').loginAs(owner).withInertia()).inertiaProps
      .planUsage as any
    assert.deepEqual(asOwner.usage.botCreation, { used: 1, limit: 50 })
    assert.deepEqual(asOwner.usage.multipleWorkspace, { used: 1, limit: 1 })
  })
})
