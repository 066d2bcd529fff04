import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import StripeEvent from '#models/stripe_event'
import Subscription from '#models/subscription'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import { collectAnalytics } from '#tests/stand_ins/posthog'
import { flushAnalytics } from '#services/analytics/analytics'
import {
  deliverStripeEvent,
  signStripePayload,
  stripeEvent,
  type StripeStandIn,
} from '#tests/stand_ins/stripe'
import { putEnv, startStripeBilling, STRIPE_TEST } from '#tests/billing_helpers'

/*
 * Stripe billing (docs/billing.md) against a stand-in of Stripe's HTTP API, the official SDK
 * pointed at it; webhook events are signed with a real secret by the SDK's own helper.
 */

const { SECRET_KEY, WEBHOOK_SECRET } = STRIPE_TEST
const webhookUrl = () => `http://127.0.0.1:${process.env.PORT}/api/stripe/webhook`

let stripe: StripeStandIn

function billingGroup(group: { setup: (fn: () => Promise<() => Promise<void>>) => void }) {
  group.setup(async () => {
    const billing = await startStripeBilling()
    stripe = billing.stripe
    return billing.stop
  })
}

const CHECKOUT = {
  plan: 'STANDARD',
  period: 'month',
  company: 'Acme GmbH',
  email: 'billing@acme.test',
  taxIdType: 'eu_vat',
  taxId: 'DE123456789',
}

/** A user with a fresh workspace, and the Checkout URL of a first purchase. */
async function checkoutAs(client: any, input: Record<string, string> = CHECKOUT) {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const response = await client
    .post('/billing/checkout')
    .loginAs(user)
    .withInertia()
    .withCsrfToken()
    .redirects(0)
    .json(input)
  return { user, workspace, response }
}

/** Buys Pro through the stand-in's hosted page, which sends Stripe's events. */
async function subscribed(client: any) {
  const { user, workspace, response } = await checkoutAs(client)
  const sessionId = String(response.header('x-inertia-location')).split('/').pop()!
  const paid = await stripe.pay(sessionId)
  await workspace.refresh()
  await user.refresh()
  return { user, workspace, ...paid }
}

function send(event: unknown) {
  return deliverStripeEvent(webhookUrl(), event, WEBHOOK_SECRET)
}

test.group('Billing: configuration', (group) => {
  billingGroup(group)

  test('billing stays off until the webhook secret and a price are set', async ({
    client,
    assert,
  }) => {
    const restore = putEnv({ STRIPE_WEBHOOK_SECRET: undefined })
    try {
      // ADMIN_EMAILS=admin@example.com in .env.test
      const admin = await createUser({ email: 'admin@example.com' })
      const page = await client.get('/bots/plans').loginAs(admin).withInertia()
      assert.isFalse(page.inertiaProps.billingEnabled)
      assert.deepEqual(page.inertiaProps.billingMissing, ['STRIPE_WEBHOOK_SECRET'])
      assert.deepEqual(page.inertiaProps.pricing, [])
      const { response } = await checkoutAs(client)
      response.assertStatus(302)
      assert.isUndefined(response.header('x-inertia-location'))
      const refused = await send(stripeEvent('invoice.paid', {}))
      assert.equal(refused.status, 404)
    } finally {
      restore()
    }
  })

  test('the pricing cards show the prices Stripe holds, Pro marked most popular', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const page = await client.get('/bots/plans').loginAs(user).withInertia()
    assert.isTrue(page.inertiaProps.billingEnabled)
    const cards = page.inertiaProps.pricing
    assert.deepEqual(
      cards.map((c: any) => [c.plan, c.mostPopular, c.monthly?.amount, c.yearly?.amount]),
      [
        ['BASIC', false, 3900, 39000],
        ['STANDARD', true, 8900, 89000],
      ]
    )
    assert.equal(cards[1].seats, 5)
    assert.include(
      stripe.calls.filter((c) => c.path.startsWith('/v1/prices/')).map((c) => c.path),
      '/v1/prices/price_pro_year'
    )
    assert.equal(page.inertiaProps.billing.subscription, null)
  })
})

test.group('Billing: checkout and portal', (group) => {
  billingGroup(group)

  test('checkout creates the customer with the pre-checkout details and sends the browser to Stripe', async ({
    assert,
    client,
  }) => {
    const before = stripe.calls.length
    const { workspace, response } = await checkoutAs(client)
    response.assertStatus(409)
    const location = response.header('x-inertia-location')
    assert.match(location, new RegExp(`^${stripe.baseUrl}/checkout/cs_test_`))

    const calls = stripe.calls.slice(before)
    const customer = calls.find((c) => c.path === '/v1/customers')!
    assert.equal(customer.authorization, `Bearer ${SECRET_KEY}`)
    assert.deepInclude(customer.body, { name: 'Acme GmbH', email: 'billing@acme.test' })
    assert.deepEqual(customer.body.tax_id_data, [{ type: 'eu_vat', value: 'DE123456789' }])
    assert.equal(customer.body.metadata.workspaceId, workspace.id)

    const session = calls.find((c) => c.path === '/v1/checkout/sessions')!
    assert.equal(session.body.mode, 'subscription')
    assert.equal(session.body.client_reference_id, workspace.id)
    assert.deepEqual(session.body.line_items, [{ price: 'price_pro_month', quantity: '1' }])
    assert.deepEqual(session.body.subscription_data.metadata, {
      workspaceId: workspace.id,
      plan: 'STANDARD',
      period: 'month',
    })
    const success = new URL(session.body.success_url)
    assert.equal(success.pathname, '/bots/plans')
    assert.equal(success.searchParams.get('stripe'), 'STANDARD')
    assert.equal(success.searchParams.get('workspaceId'), workspace.id)
    assert.equal(new URL(session.body.cancel_url).searchParams.get('stripe'), 'cancel')

    await workspace.refresh()
    assert.equal(workspace.stripeId, session.body.customer)
  })

  test('a second checkout reuses the customer and adds a new tax id only', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await checkoutAs(client)
    const customerId = (await Workspace.findOrFail(workspace.id)).stripeId!
    const before = stripe.calls.length
    const again = await client
      .post('/billing/checkout')
      .loginAs(user)
      .withInertia()
      .withCsrfToken()
      .json({ ...CHECKOUT, company: 'Acme AG', plan: 'BASIC', period: 'year' })
    again.assertStatus(409)
    const calls = stripe.calls.slice(before)
    assert.notExists(calls.find((c) => c.method === 'POST' && c.path === '/v1/customers'))
    assert.deepInclude(calls.find((c) => c.path === `/v1/customers/${customerId}`)!.body, {
      name: 'Acme AG',
    })
    assert.notExists(calls.find((c) => c.method === 'POST' && c.path.endsWith('/tax_ids')))
    const session = calls.find((c) => c.path === '/v1/checkout/sessions')!
    assert.deepEqual(session.body.line_items, [{ price: 'price_starter_year', quantity: '1' }])
  })

  test('bad pre-checkout input is refused before Stripe is called', async ({ client, assert }) => {
    const before = stripe.calls.length
    for (const input of [
      { ...CHECKOUT, company: '  ' },
      { ...CHECKOUT, email: 'not-an-email' },
      { ...CHECKOUT, taxIdType: undefined },
      { ...CHECKOUT, plan: 'UNLIMITED' },
      { ...CHECKOUT, period: 'week' },
    ]) {
      const { response } = await checkoutAs(client, input as any)
      response.assertStatus(302)
      assert.isUndefined(response.header('x-inertia-location'))
    }
    assert.equal(stripe.calls.length, before)
  })

  test('a plan without a price for the period is not sold', async ({ client, assert }) => {
    const { response } = await checkoutAs(client, { ...CHECKOUT, plan: 'ENTERPRIZE' })
    response.assertStatus(302)
    assert.isUndefined(response.header('x-inertia-location'))
  })

  test('members who are not ADMIN cannot buy or open the portal', async ({ client, assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const member = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: member.id, role: 'MEMBER' })
    const before = stripe.calls.length
    const qs = `?workspaceId=${workspace.id}`
    const buy = await client
      .post(`/billing/checkout${qs}`)
      .loginAs(member)
      .withInertia()
      .withCsrfToken()
      .redirects(0)
      .json(CHECKOUT)
    assert.isUndefined(buy.header('x-inertia-location'))
    const portal = await client
      .post(`/billing/portal${qs}`)
      .loginAs(member)
      .withInertia()
      .withCsrfToken()
      .redirects(0)
    assert.isUndefined(portal.header('x-inertia-location'))
    assert.equal(stripe.calls.length, before)
    // As JSON the refusal is a 403.
    const json = await client
      .post(`/billing/portal${qs}`)
      .loginAs(member)
      .withCsrfToken()
      .header('accept', 'application/json')
    json.assertStatus(403)
    const tab = await client.get(`/settings/account/billing${qs}`).loginAs(member).withInertia()
    assert.isFalse(tab.inertiaProps.billing.canManage)
  })

  test('the portal opens for the customer and returns to the billing tab', async ({
    client,
    assert,
  }) => {
    const fresh = await createUser()
    const none = await client
      .post('/billing/portal')
      .loginAs(fresh)
      .withInertia()
      .withCsrfToken()
      .redirects(0)
    none.assertStatus(302)
    assert.isUndefined(none.header('x-inertia-location'))

    const { user, workspace } = await checkoutAs(client)
    await workspace.refresh()
    const response = await client
      .post('/billing/portal')
      .loginAs(user)
      .withInertia()
      .withCsrfToken()
    response.assertStatus(409)
    assert.match(
      String(response.header('x-inertia-location')),
      new RegExp(`^${stripe.baseUrl}/portal/bps_`)
    )
    const call = stripe.calls.filter((c) => c.path === '/v1/billing_portal/sessions').at(-1)!
    assert.equal(call.body.customer, workspace.stripeId)
    assert.equal(
      call.body.return_url,
      `http://127.0.0.1:${process.env.PORT}/settings/account/billing`
    )
  })
})

test.group('Billing: webhooks', (group) => {
  billingGroup(group)

  test('paying on Checkout gives the workspace and its creator the plan', async ({
    client,
    assert,
  }) => {
    const { user, workspace, subscription } = await subscribed(client)
    assert.deepEqual(
      stripe.delivered.slice(-3).map((d) => [d.event.type, d.status, JSON.parse(d.body).outcome]),
      [
        ['checkout.session.completed', 200, 'applied'],
        ['customer.subscription.created', 200, 'applied'],
        ['invoice.paid', 200, 'applied'],
      ]
    )
    assert.equal(workspace.plan, 'STANDARD')
    assert.isFalse(!!workspace.isPastDue)
    const end = subscription.items.data[0].current_period_end
    assert.equal(workspace.planEndsAt!.toSeconds(), end)
    assert.equal(user.plan, 'STANDARD')
    assert.equal(user.planEndsAt!.toSeconds(), end)
    const row = await Subscription.findByOrFail('stripe_subscription_id', subscription.id)
    assert.deepInclude(row.serialize(), { plan: 'STANDARD', period: 'month', status: 'active' })
    // checkout.session.completed read the subscription from Stripe.
    assert.exists(stripe.calls.find((c) => c.path === `/v1/subscriptions/${subscription.id}`))

    const tab = await client.get('/settings/account/billing').loginAs(user).withInertia()
    assert.deepInclude(tab.inertiaProps.billing.subscription, {
      plan: 'STANDARD',
      period: 'month',
      status: 'active',
      cancelAt: null,
    })
    const invoices = await client
      .get('/settings/account/billing')
      .loginAs(user)
      .withInertia()
      .withInertiaPartialReload('settings/index', ['invoices'])
    const [invoice] = invoices.inertiaProps.invoices.items
    assert.deepInclude(invoice, { status: 'paid', subtotal: 8900, total: 8900, currency: 'usd' })
    assert.match(invoice.number, /^STANDIN-/)
    assert.isString(invoice.paidAt)
    assert.isNull(invoices.inertiaProps.invoices.error)
  })

  test('a redelivered event changes nothing', async ({ client, assert }) => {
    const { workspace, subscription } = await subscribed(client)
    const failed = stripeEvent(
      'invoice.payment_failed',
      stripe.renewalInvoice(subscription.id, 'open')
    )
    const first = await send(failed)
    assert.equal(first.status, 200)
    await workspace.refresh()
    assert.isTrue(!!workspace.isPastDue)

    const paid = stripeEvent('invoice.paid', stripe.renewalInvoice(subscription.id, 'paid'))
    assert.equal((await send(paid)).status, 200)
    await workspace.refresh()
    assert.isFalse(!!workspace.isPastDue)

    // Stripe retries the failure (e.g. our first answer was lost): it is not applied again.
    const again = await send(failed)
    assert.equal(again.status, 200)
    assert.equal((await again.json()).outcome, 'duplicate')
    await workspace.refresh()
    assert.isFalse(!!workspace.isPastDue)
    assert.equal((await StripeEvent.query().where('id', failed.id)).length, 1)
  })

  test('a bad or missing signature is refused and changes nothing', async ({ client, assert }) => {
    const { workspace, subscription } = await subscribed(client)
    const event = stripeEvent('customer.subscription.deleted', {
      ...subscription,
      status: 'canceled',
    })
    const payload = JSON.stringify(event)
    const post = (headers: Record<string, string>, body = payload) =>
      fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      })
    const wrongSecret = await post({
      'stripe-signature': signStripePayload(payload, 'whsec_someone_else'),
    })
    assert.equal(wrongSecret.status, 400)
    assert.equal((await wrongSecret.json()).message, 'Invalid Stripe signature')
    const missing = await post({})
    assert.equal(missing.status, 400)
    const tampered = await post(
      { 'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET) },
      payload.replace('"canceled"', '"active"')
    )
    assert.equal(tampered.status, 400)
    // Older than the SDK's 5-minute tolerance: a replayed capture.
    const stale = await post({
      'stripe-signature': signStripePayload(
        payload,
        WEBHOOK_SECRET,
        Math.floor(Date.now() / 1000) - 3600
      ),
    })
    assert.equal(stale.status, 400)
    await workspace.refresh()
    assert.equal(workspace.plan, 'STANDARD')
    assert.notExists(await StripeEvent.find(event.id))
  })

  test('subscription updates change the plan, the period end and the cancel date', async ({
    client,
    assert,
  }) => {
    const { user, workspace, subscription } = await subscribed(client)
    const cancelAt = Math.floor(Date.now() / 1000) + 20 * 86400
    const item = subscription.items.data[0] as Record<string, any>
    const downgraded = stripe.updateSubscription(subscription.id, {
      cancel_at: cancelAt,
      items: {
        object: 'list',
        data: [{ ...item, price: { ...item.price, id: 'price_starter_year' } }],
      },
    })
    const response = await send(stripeEvent('customer.subscription.updated', downgraded))
    assert.equal(response.status, 200)
    await workspace.refresh()
    await user.refresh()
    assert.equal(workspace.plan, 'BASIC')
    assert.equal(user.plan, 'BASIC')
    const tab = await client.get('/settings/account/billing').loginAs(user).withInertia()
    assert.deepInclude(tab.inertiaProps.billing.subscription, { plan: 'BASIC', period: 'year' })
    assert.equal(
      DateTime.fromISO(tab.inertiaProps.billing.subscription.cancelAt).toSeconds(),
      cancelAt
    )
  })

  test('a deleted subscription brings the workspace and its creator back to FREE', async ({
    client,
    assert,
  }) => {
    const { user, workspace, subscription } = await subscribed(client)
    const ended = stripe.updateSubscription(subscription.id, { status: 'canceled' })
    assert.equal((await send(stripeEvent('customer.subscription.deleted', ended))).status, 200)
    await workspace.refresh()
    await user.refresh()
    assert.equal(workspace.plan, 'FREE')
    assert.equal(user.plan, 'FREE')
    const tab = await client.get('/settings/account/billing').loginAs(user).withInertia()
    assert.isNull(tab.inertiaProps.billing.subscription)
    // It can be bought again.
    const again = await client
      .post('/billing/checkout')
      .loginAs(user)
      .withInertia()
      .withCsrfToken()
      .json(CHECKOUT)
    again.assertStatus(409)
  })

  test('a plan an admin granted above the subscription stays when it ends', async ({
    client,
    assert,
  }) => {
    const { user, workspace, subscription } = await subscribed(client)
    user.plan = 'UNLIMITED'
    await user.save()
    const ended = stripe.updateSubscription(subscription.id, { status: 'canceled' })
    await send(stripeEvent('customer.subscription.deleted', ended))
    await user.refresh()
    await workspace.refresh()
    assert.equal(user.plan, 'UNLIMITED')
    assert.equal(workspace.plan, 'FREE')
  })

  test('a failed payment sends members to /past-due except the plans page, until paid', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { user, workspace, subscription } = await subscribed(client)
    const analytics = await collectAnalytics(cleanup)
    const failed = await send(
      stripeEvent('invoice.payment_failed', stripe.renewalInvoice(subscription.id, 'open'))
    )
    assert.equal(failed.status, 200)
    await workspace.refresh()
    assert.isTrue(!!workspace.isPastDue)
    await flushAnalytics()
    assert.deepEqual(
      analytics.named('Workspace past due').map((event) => event.properties.workspaceId),
      [workspace.id]
    )
    ;(await client.get('/bots').loginAs(user).redirects(0)).assertHeader('location', '/past-due')
    ;(await client.get('/workflows').loginAs(user).redirects(0)).assertHeader(
      'location',
      '/past-due'
    )
    ;(await client.get('/bots/plans').loginAs(user).withInertia()).assertInertiaComponent(
      'bots/plans'
    )
    const pastDue = await client.get('/past-due').loginAs(user).withInertia()
    assert.isTrue(pastDue.inertiaProps.billing.isPastDue)
    assert.equal(pastDue.inertiaProps.billing.subscription.status, 'past_due')
    // The portal, where the card is fixed, stays open.
    const portal = await client.post('/billing/portal').loginAs(user).withInertia().withCsrfToken()
    portal.assertStatus(409)

    // Stripe marks the subscription past_due too; then the retry succeeds.
    await send(
      stripeEvent(
        'customer.subscription.updated',
        stripe.updateSubscription(subscription.id, { status: 'past_due' })
      )
    )
    await workspace.refresh()
    assert.isTrue(!!workspace.isPastDue)
    const renewal = stripe.renewalInvoice(subscription.id, 'paid')
    await send(stripeEvent('invoice.paid', renewal))
    await workspace.refresh()
    assert.isFalse(!!workspace.isPastDue)
    assert.equal(workspace.planEndsAt!.toSeconds(), renewal.lines.data[0].period.end)
    ;(await client.get('/bots').loginAs(user).withInertia()).assertStatus(200)
  })

  test('events of unknown workspaces or unconfigured prices are acknowledged and ignored', async ({
    assert,
  }) => {
    const response = await send(
      stripeEvent('customer.subscription.updated', {
        id: 'sub_unknown',
        object: 'subscription',
        customer: 'cus_unknown',
        status: 'active',
        metadata: {},
        items: { object: 'list', data: [{ price: { id: 'price_other' }, current_period_end: 1 }] },
      })
    )
    assert.equal(response.status, 200)
    assert.equal((await response.json()).outcome, 'ignored')
    const other = await send(stripeEvent('customer.created', { id: 'cus_x' }))
    assert.equal((await other.json()).outcome, 'ignored')
  })
})

test.group('Billing: chat usage', (group) => {
  billingGroup(group)

  test('the billing tab shows the month’s chats and warns near the limit', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const period = new Date().toISOString().slice(0, 7)
    // FREE (.env.test): 200 chats a month.
    await db.table('chat_usage').insert({ workspace_id: workspace.id, period, chats: 120 })
    forgetChatLimits()
    const calm = await client.get('/settings/account/billing').loginAs(user).withInertia()
    assert.deepEqual(calm.inertiaProps.billing.chats, {
      used: 120,
      limit: 200,
      nearingLimit: false,
      reached: false,
    })
    await db.from('chat_usage').where('workspace_id', workspace.id).update({ chats: 165 })
    const near = await client.get('/settings/account/billing').loginAs(user).withInertia()
    assert.deepInclude(near.inertiaProps.billing.chats, { used: 165, nearingLimit: true })
    await db.from('chat_usage').where('workspace_id', workspace.id).update({ chats: 200 })
    const full = await client.get('/bots/plans').loginAs(user).withInertia()
    assert.deepInclude(full.inertiaProps.billing.chats, { reached: true })
  })
})
