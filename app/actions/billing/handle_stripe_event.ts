import { DateTime } from 'luxon'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type Stripe from 'stripe'
import AppError from '#exceptions/app_error'
import StripeEvent from '#models/stripe_event'
import Subscription from '#models/subscription'
import User from '#models/user'
import Workspace from '#models/workspace'
import { LIVE_STATUSES } from '#services/billing/billing'
import { planOfPrice, stripeClient, webhookSecret } from '#services/billing/stripe'
import {
  billingEnabled,
  clampPlanEnd,
  defaultPlanName,
  getPlan,
  planEndDate,
} from '#services/plans'
import { BILLING_PERIODS, PAID_PLANS, type BillingPeriod, type PaidPlanName } from '#shared/billing'
import { PLAN_NAMES, type PlanDefinition, type PlanName } from '#shared/plans'
import { track } from '#services/analytics/analytics'

/**
 * Stripe's webhook events drive the billing state (docs/billing.md): a checkout completed,
 * a subscription created, updated or deleted, an invoice paid or failed. The signature is
 * checked with the configured secret; every applied event id is stored, so a redelivery
 * changes nothing.
 */

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored'

const PAST_DUE_STATUSES = ['past_due', 'unpaid']
const ENDED_STATUSES = ['canceled', 'incomplete_expired', 'paused']

function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null
  return typeof ref === 'string' ? ref : ref.id
}

function dateOf(seconds: number | null | undefined) {
  return seconds ? DateTime.fromSeconds(seconds, { zone: 'utc' }) : null
}

const rank = (plan: PlanName) => PLAN_NAMES.indexOf(plan)

/** Verifies the signature and parses the event; a bad one is refused with 400. */
export function verifyEvent(rawBody: string, signature: string | undefined): Stripe.Event {
  const secret = webhookSecret()
  if (!billingEnabled() || !secret) {
    throw new AppError('Billing is off', { status: 404, code: 'E_BILLING_OFF' })
  }
  if (!signature) {
    throw new AppError('Missing Stripe-Signature header', { status: 400, code: 'E_BAD_SIGNATURE' })
  }
  try {
    return stripeClient().webhooks.constructEvent(rawBody, signature, secret)
  } catch (error) {
    throw new AppError('Invalid Stripe signature', {
      status: 400,
      code: 'E_BAD_SIGNATURE',
      description: (error as Error).message,
    })
  }
}

export async function handleStripeEvent(event: Stripe.Event): Promise<WebhookOutcome> {
  if (await StripeEvent.find(event.id)) return 'duplicate'
  // What the event needs from Stripe is read before the transaction: no write lock is held
  // across an HTTP call.
  const remote = await fetchRemote(event)
  // Read outside too: SQLite's single connection is the transaction's until it ends.
  const fallback = await getPlan(defaultPlanName())
  let outcome: WebhookOutcome = 'ignored'
  try {
    await db.transaction(async (trx) => {
      outcome = (await apply(event, remote, { trx, fallback })) ? 'applied' : 'ignored'
      await StripeEvent.create({ id: event.id, type: event.type }, { client: trx })
    })
  } catch (error) {
    // The same event delivered twice at once: the other delivery stored it first.
    if (await StripeEvent.find(event.id)) return 'duplicate'
    throw error
  }
  return outcome
}

async function fetchRemote(event: Stripe.Event): Promise<Stripe.Subscription | null> {
  if (event.type !== 'checkout.session.completed') return null
  const subscriptionId = idOf(event.data.object.subscription)
  if (!subscriptionId) return null
  return stripeClient().subscriptions.retrieve(subscriptionId)
}

/** The transaction of the event, and the plan a workspace falls back to when one ends. */
interface Apply {
  trx: TransactionClientContract
  fallback: PlanDefinition
}

async function apply(
  event: Stripe.Event,
  remote: Stripe.Subscription | null,
  ctx: Apply
): Promise<boolean> {
  const { trx } = ctx
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode !== 'subscription') return false
      const workspace = await findWorkspace(
        trx,
        session.client_reference_id ?? session.metadata?.workspaceId,
        idOf(session.customer)
      )
      if (!workspace) return false
      const customer = idOf(session.customer)
      if (customer && workspace.stripeId !== customer) {
        workspace.stripeId = customer
        await workspace.save()
      }
      return remote ? applySubscription(remote, ctx) : true
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return applySubscription(event.data.object, ctx)
    case 'invoice.paid':
      return applyInvoice(event.data.object, 'paid', ctx)
    case 'invoice.payment_failed':
      return applyInvoice(event.data.object, 'failed', ctx)
    default:
      return false
  }
}

async function findWorkspace(
  trx: TransactionClientContract,
  workspaceId: string | null | undefined,
  customerId: string | null
): Promise<Workspace | null> {
  const byId = workspaceId ? await Workspace.find(workspaceId, { client: trx }) : null
  if (byId) return byId
  if (!customerId) return null
  return Workspace.query({ client: trx }).where('stripe_id', customerId).first()
}

function pricedPlan(subscription: Stripe.Subscription) {
  const item = subscription.items?.data?.[0]
  const fromPrice = planOfPrice(item?.price?.id)
  if (fromPrice) return fromPrice
  // A price id no longer configured: the metadata our checkout wrote.
  const plan = subscription.metadata?.plan
  const period = subscription.metadata?.period
  if (
    (PAID_PLANS as readonly string[]).includes(plan ?? '') &&
    (BILLING_PERIODS as readonly string[]).includes(period ?? '')
  ) {
    return { plan: plan as PaidPlanName, period: period as BillingPeriod }
  }
  return null
}

/** Stores the subscription as Stripe describes it and gives the workspace its plan. */
async function applySubscription(subscription: Stripe.Subscription, ctx: Apply): Promise<boolean> {
  const { trx, fallback } = ctx
  const priced = pricedPlan(subscription)
  const customer = idOf(subscription.customer)
  if (!priced || !customer) {
    logger.warn({ subscription: subscription.id }, 'Stripe subscription of no configured price')
    return false
  }
  const workspace = await findWorkspace(trx, subscription.metadata?.workspaceId, customer)
  if (!workspace) {
    logger.warn({ subscription: subscription.id }, 'Stripe subscription of no known workspace')
    return false
  }
  const item = subscription.items?.data?.[0]
  const periodEnd = dateOf(item?.current_period_end)
  const row =
    (await Subscription.query({ client: trx })
      .where('stripe_subscription_id', subscription.id)
      .first()) ?? new Subscription()
  const previousPlan = row.$isPersisted && LIVE_STATUSES.includes(row.status) ? row.plan : null
  row.useTransaction(trx)
  row.merge({
    workspaceId: workspace.id,
    stripeSubscriptionId: subscription.id,
    stripeCustomerId: customer,
    plan: priced.plan,
    period: priced.period,
    status: subscription.status,
    currentPeriodEnd: periodEnd,
    cancelAt:
      dateOf(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? periodEnd : null),
  })
  await row.save()

  workspace.useTransaction(trx)
  if (!workspace.stripeId) workspace.stripeId = customer
  if (LIVE_STATUSES.includes(subscription.status)) {
    workspace.plan = priced.plan
    workspace.planEndsAt = periodEnd ? clampPlanEnd(periodEnd) : workspace.planEndsAt
    workspace.isPastDue = PAST_DUE_STATUSES.includes(subscription.status)
  } else if (ENDED_STATUSES.includes(subscription.status)) {
    const other = await Subscription.query({ client: trx })
      .where('workspace_id', workspace.id)
      .whereNot('id', row.id)
      .whereIn('status', LIVE_STATUSES)
      .first()
    if (!other) {
      workspace.plan = fallback.name
      workspace.planEndsAt = planEndDate(fallback)
      workspace.isPastDue = false
    }
  }
  notePastDue(workspace)
  await workspace.save()
  await syncCreatorPlan(workspace, previousPlan, ctx)
  return true
}

/** Counts the moment a workspace falls past due (not each event that keeps it there). */
function notePastDue(workspace: Workspace) {
  if (workspace.isPastDue && !workspace.$original.isPastDue) {
    track({ name: 'Workspace past due', workspaceId: workspace.id })
  }
}

/** An invoice of a subscription: paid lifts past due and extends the period, failed sets it. */
async function applyInvoice(
  invoice: Stripe.Invoice,
  outcome: 'paid' | 'failed',
  ctx: Apply
): Promise<boolean> {
  const { trx } = ctx
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription)
  const customer = idOf(invoice.customer)
  const row = subscriptionId
    ? await Subscription.query({ client: trx })
        .where('stripe_subscription_id', subscriptionId)
        .first()
    : null
  const workspace = await findWorkspace(trx, row?.workspaceId, customer)
  if (!workspace) return false
  workspace.useTransaction(trx)
  if (outcome === 'failed') {
    workspace.isPastDue = true
    if (row && row.status !== 'past_due') {
      row.useTransaction(trx)
      row.status = 'past_due'
      await row.save()
    }
    notePastDue(workspace)
    await workspace.save()
    return true
  }
  workspace.isPastDue = false
  const ends = (invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0)
  const periodEnd = dateOf(Math.max(0, ...ends))
  if (row) {
    row.useTransaction(trx)
    if (PAST_DUE_STATUSES.includes(row.status)) row.status = 'active'
    if (periodEnd && (!row.currentPeriodEnd || periodEnd > row.currentPeriodEnd)) {
      row.currentPeriodEnd = periodEnd
    }
    await row.save()
    if (LIVE_STATUSES.includes(row.status) && row.currentPeriodEnd) {
      workspace.plan = row.plan
      workspace.planEndsAt = clampPlanEnd(row.currentPeriodEnd)
    }
  }
  await workspace.save()
  if (row) await syncCreatorPlan(workspace, row.plan, ctx)
  return true
}

/**
 * A plan bought for a workspace applies there to everyone (planFor). The creator's account
 * plan, which decides how many workspaces they may create, follows: it takes the best plan
 * among the live subscriptions of the workspaces they created, when it is better than
 * theirs or when theirs came from the subscription that changed (`previousPlan`). A plan an
 * admin granted above it stays.
 */
async function syncCreatorPlan(
  workspace: Workspace,
  previousPlan: PlanName | null,
  { trx, fallback }: Apply
) {
  if (!workspace.createdBy) return
  const creator = await User.find(workspace.createdBy, { client: trx })
  if (!creator) return
  const live = await Subscription.query({ client: trx })
    .whereIn('status', LIVE_STATUSES)
    .whereIn('workspace_id', (query) =>
      query.from('workspaces').where('created_by', creator.id).select('id')
    )
  let best: Subscription | null = null
  for (const subscription of live) {
    if (
      !best ||
      rank(subscription.plan) > rank(best.plan) ||
      (subscription.plan === best.plan &&
        (subscription.currentPeriodEnd?.toMillis() ?? 0) > (best.currentPeriodEnd?.toMillis() ?? 0))
    ) {
      best = subscription
    }
  }
  const followsBilling = previousPlan !== null && creator.plan === previousPlan
  creator.useTransaction(trx)
  if (best) {
    if (!followsBilling && rank(best.plan) < rank(creator.plan)) return
    if (!followsBilling && rank(best.plan) === rank(creator.plan) && !best.currentPeriodEnd) return
    creator.plan = best.plan
    creator.planEndsAt = best.currentPeriodEnd
      ? clampPlanEnd(best.currentPeriodEnd)
      : creator.planEndsAt
  } else if (followsBilling) {
    creator.plan = fallback.name
    creator.planEndsAt = planEndDate(fallback)
  } else return
  await creator.save()
}
