import { test } from '@japa/runner'
import AiModelPrice from '#models/ai_model_price'
import { DEFAULT_PRICE_MODEL, recordAiUsage } from '#services/ai/credits'
import { createUser } from '#tests/helpers'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import app from '@adonisjs/core/services/app'
import { storedBalance, MINI, DEFAULT } from '#tests/ai_credit_helpers'

async function admin() {
  // ADMIN_EMAILS=admin@example.com in .env.test
  return (await new FindOrCreateUser().handle('admin@example.com')).user
}

test.group('AI credits: the admin price table and grants', (group) => {
  group.each.teardown(async () => {
    await AiModelPrice.query().whereILike('model', 'admin-test-%').delete()
    await AiModelPrice.query()
      .where('model', DEFAULT_PRICE_MODEL)
      .update({ input_token: DEFAULT.input, output_token: DEFAULT.output })
  })

  test('admins see the price table, the default row first', async ({ client, assert }) => {
    const page = await client
      .get('/admin/ai-prices')
      .loginAs(await admin())
      .withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('admin/ai_prices')
    const prices = page.inertiaProps.prices as any[]
    assert.deepInclude(prices[0], {
      model: DEFAULT_PRICE_MODEL,
      inputToken: DEFAULT.input,
      outputToken: DEFAULT.output,
      isDefault: true,
    })
    assert.deepInclude(
      prices.find((row) => row.model === MINI.model),
      { inputToken: MINI.input, outputToken: MINI.output, isDefault: false }
    )
    assert.equal(page.inertiaProps.initialCredits, 10)
    assert.isNull(page.inertiaProps.granted)
  })

  test('non-admins get 403 on every route and change nothing', async ({ client, assert }) => {
    const someone = await createUser()
    const price = await AiModelPrice.create({
      model: 'admin-test-guarded',
      inputToken: 1,
      outputToken: 1,
    })
    const calls = [
      client.get('/admin/ai-prices'),
      client
        .post('/admin/ai-prices')
        .json({ model: 'admin-test-x', inputToken: 1, outputToken: 1 }),
      client.put(`/admin/ai-prices/${price.id}`).json({
        model: 'admin-test-guarded',
        inputToken: 5,
        outputToken: 5,
      }),
      client.delete(`/admin/ai-prices/${price.id}`),
      client.post('/admin/ai-credits').json({ email: someone.email, amount: 100 }),
    ]
    for (const call of calls) {
      const response = await call
        .loginAs(someone)
        .withCsrfToken()
        .header('accept', 'application/json')
        .redirects(0)
      response.assertStatus(403)
    }
    // The page itself, as the app requests it, does not render for them either.
    const page = await client.get('/admin/ai-prices').loginAs(someone).withInertia().redirects(0)
    assert.notEqual(page.status(), 200)

    await price.refresh()
    assert.equal(price.inputToken, 1)
    assert.isNull(await AiModelPrice.findBy('model', 'admin-test-x'))
    assert.equal(await storedBalance(someone.id), '10.000000000')
  })

  test('an admin adds, edits and deletes a row; the new price is charged', async ({
    client,
    assert,
  }) => {
    const user = await admin()
    const created = await client
      .post('/admin/ai-prices')
      .json({ model: '  admin-test-model ', inputToken: '4000000', outputToken: 1_000_000 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    created.assertStatus(302)
    const row = await AiModelPrice.findByOrFail('model', 'admin-test-model')
    assert.equal(row.inputToken, 4_000_000)
    assert.equal(row.outputToken, 1_000_000)

    const edited = await client
      .put(`/admin/ai-prices/${row.id}`)
      .json({ model: 'admin-test-renamed', inputToken: 2.5, outputToken: 0.5 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    edited.assertStatus(302)
    await row.refresh()
    assert.equal(row.model, 'admin-test-renamed')
    assert.equal(row.inputToken, 2.5)
    assert.equal(row.outputToken, 0.5)

    // 5 / 2.5 + 1 / 0.5 = 4 credits with the edited row.
    const someone = await createUser()
    assert.strictEqual(
      await recordAiUsage({
        userId: someone.id,
        model: 'admin-test-renamed',
        inputTokens: 5,
        outputTokens: 1,
      }),
      4
    )

    const deleted = await client
      .delete(`/admin/ai-prices/${row.id}`)
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    deleted.assertStatus(302)
    assert.isNull(await AiModelPrice.find(row.id))
  })

  test('the validator wants positive numbers and a unique model', async ({ client, assert }) => {
    const user = await admin()
    const send = (payload: Record<string, unknown>, path = '/admin/ai-prices') =>
      client.post(path).json(payload).loginAs(user).withCsrfToken().redirects(0)

    const negative = await send({ model: 'admin-test-a', inputToken: -1, outputToken: 0 })
    negative.assertHasValidationError('inputToken')
    negative.assertHasValidationError('outputToken')
    const words = await send({ model: 'admin-test-a', inputToken: 'many', outputToken: 5 })
    words.assertHasValidationError('inputToken')
    const blank = await send({ model: '   ', inputToken: 1, outputToken: 1 })
    blank.assertHasValidationError('model')
    const taken = await send({ model: MINI.model, inputToken: 1, outputToken: 1 })
    taken.assertHasValidationError('model')
    assert.isNull(await AiModelPrice.findBy('model', 'admin-test-a'))

    // Editing a row may keep its own name, not take another row's.
    const row = await AiModelPrice.create({ model: 'admin-test-b', inputToken: 1, outputToken: 1 })
    const same = await client
      .put(`/admin/ai-prices/${row.id}`)
      .json({ model: 'admin-test-b', inputToken: 3, outputToken: 3 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    same.assertFlashMissing('errors')
    const other = await client
      .put(`/admin/ai-prices/${row.id}`)
      .json({ model: MINI.model, inputToken: 3, outputToken: 3 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    other.assertHasValidationError('model')
    await row.refresh()
    assert.equal(row.model, 'admin-test-b')
    assert.equal(row.inputToken, 3)
  })

  test('the default row cannot be deleted nor renamed; its prices can change', async ({
    client,
    assert,
  }) => {
    const user = await admin()
    const fallback = await AiModelPrice.findByOrFail('model', DEFAULT_PRICE_MODEL)
    const refused = await client
      .delete(`/admin/ai-prices/${fallback.id}`)
      .loginAs(user)
      .withCsrfToken()
      .header('accept', 'application/json')
    refused.assertStatus(409)
    assert.equal(refused.body().message, 'The default price cannot be deleted')
    assert.isNotNull(await AiModelPrice.find(fallback.id))

    await client
      .put(`/admin/ai-prices/${fallback.id}`)
      .json({ model: 'admin-test-not-default', inputToken: 1_000_000, outputToken: 250_000 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    await fallback.refresh()
    assert.equal(fallback.model, DEFAULT_PRICE_MODEL)
    assert.equal(fallback.inputToken, 1_000_000)
    assert.equal(fallback.outputToken, 250_000)
  })

  test('an admin adds credits to a user by e-mail', async ({ client, assert }) => {
    const user = await admin()
    const someone = await createUser()
    await recordAiUsage({
      userId: someone.id,
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
    })
    const granted = await client
      .post('/admin/ai-credits')
      .json({ email: someone.email.toUpperCase(), amount: '2.5' })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    granted.assertStatus(302)
    assert.equal(await storedBalance(someone.id), '12.499474700')
    granted.assertFlashMessage('aiCreditsGranted', {
      email: someone.email,
      amount: 2.5,
      credits: '12.499474700',
    })

    const unknown = await client
      .post('/admin/ai-credits')
      .json({ email: 'nobody-here@example.com', amount: 1 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    unknown.assertHasValidationError('email')
    const zero = await client
      .post('/admin/ai-credits')
      .json({ email: someone.email, amount: 0 })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    zero.assertHasValidationError('amount')
    assert.equal(await storedBalance(someone.id), '12.499474700')
  })

  test('node ace ai:credits <email> <amount> adds credits and prints the balance', async ({
    assert,
  }) => {
    const someone = await createUser()
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    const command = await ace.exec('ai:credits', [someone.email, '0.000000001'])
    assert.equal(command.exitCode, 0)
    assert.equal(await storedBalance(someone.id), '10.000000001')
    const printed = command.ui.logger.getLogs().map((log) => log.message)
    assert.isTrue(
      printed.some((line) => line.includes('10.000000001') && line.includes(someone.email)),
      JSON.stringify(printed)
    )

    const unknown = await ace.exec('ai:credits', ['nobody-here@example.com', '5'])
    assert.equal(unknown.exitCode, 1)
    const notANumber = await ace.exec('ai:credits', [someone.email, 'lots'])
    assert.equal(notANumber.exitCode, 1)
    assert.equal(await storedBalance(someone.id), '10.000000001')
  })
})

test.group('AI credits: Billing & Usage', () => {
  test('the billing tab defers the AI usage, then sends the signed-in user’s own', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const other = await createUser()
    await recordAiUsage({ userId: other.id, model: MINI.model, inputTokens: 9, outputTokens: 9 })

    const page = await client.get('/settings/account/billing').loginAs(user).withInertia()
    page.assertStatus(200)
    page.assertInertiaComponent('settings/index')
    // Deferred: the tab renders without waiting, with skeletons.
    assert.notProperty(page.inertiaProps, 'aiUsage')
    assert.deepEqual(page.body().deferredProps, { default: ['aiUsage'] })

    const empty = await client
      .get('/settings/account/billing')
      .loginAs(user)
      .withInertia()
      .withInertiaPartialReload('settings/index', ['aiUsage'])
    assert.deepEqual(empty.inertiaProps.aiUsage.latest, [])
    assert.equal(empty.inertiaProps.aiUsage.credits, '10.000000000')
    assert.equal(empty.inertiaProps.aiUsage.month.calls, 0)

    await recordAiUsage({
      userId: user.id,
      source: 'openai',
      model: MINI.model,
      inputTokens: 1234,
      outputTokens: 567,
    })
    await recordAiUsage({
      userId: user.id,
      source: 'mistral',
      inputTokens: 1000,
      outputTokens: 1000,
    })
    const loaded = await client
      .get('/settings/account/billing')
      .loginAs(user)
      .withInertia()
      .withInertiaPartialReload('settings/index', ['aiUsage'])
    const usage = loaded.inertiaProps.aiUsage
    // 10 - 0.0005253 - 0.0025, as exact text (no float in JSON).
    assert.equal(usage.credits, '9.996974700')
    assert.deepInclude(usage.month, {
      calls: 2,
      inputTokens: 2234,
      outputTokens: 1567,
      credits: '0.003025300',
    })
    assert.deepEqual(
      usage.latest.map((row: any) => [
        row.source,
        row.model,
        row.inputTokens,
        row.outputTokens,
        row.credits,
      ]),
      [
        ['mistral', null, 1000, 1000, '0.002500000'],
        ['openai', MINI.model, 1234, 567, '0.000525300'],
      ]
    )
    assert.isString(usage.latest[0].createdAt)
    // Only what Billing shows: no account ids or workspace ids of the rows.
    assert.sameMembers(Object.keys(usage.latest[0]), [
      'id',
      'createdAt',
      'source',
      'model',
      'inputTokens',
      'outputTokens',
      'credits',
    ])
  })

  test('other tabs do not compute the AI usage', async ({ client, assert }) => {
    const user = await createUser()
    const page = await client.get('/settings/account/profile').loginAs(user).withInertia()
    assert.notProperty(page.inertiaProps, 'aiUsage')
    assert.notProperty(page.body().deferredProps ?? {}, 'default')
  })
})
