import logger from '@adonisjs/core/services/logger'
import type Stripe from 'stripe'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import Subscription from '#models/subscription'
import { chatsThisMonth } from '#services/chat/chat_store'
import { planFor } from '#services/capabilities'
import { billingEnabled } from '#services/plans'
import { roleIn } from '#services/workspace_access'
import { priceIdOf, stripeClient } from '#services/billing/stripe'
import {
  PAID_PLANS,
  PRICING_CARDS,
  chatUsageState,
  type BillingPeriod,
  type BillingTabDto,
  type InvoiceDto,
  type PriceDto,
  type PricingCardDto,
  type SubscriptionDto,
} from '#shared/billing'
import type { PlanDefinition } from '#shared/plans'

/** Subscription states in which the workspace keeps its paid plan. */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid']

const PRICE_TTL_MS = 10 * 60 * 1000
const prices = new Map<string, { at: number; price: PriceDto }>()

/** Tests: ask Stripe again. */
export function forgetPrices() {
  prices.clear()
}

/**
 * A configured price as Stripe holds it, cached for ten minutes: the pricing cards show
 * what Checkout will charge, not a copy of it in our configuration.
 */
async function priceOf(priceId: string, fallbackAmount: number | null): Promise<PriceDto> {
  const hit = prices.get(priceId)
  if (hit && Date.now() - hit.at < PRICE_TTL_MS) return hit.price
  try {
    const stripePrice = await stripeClient().prices.retrieve(priceId)
    const price = { amount: stripePrice.unit_amount ?? null, currency: stripePrice.currency }
    prices.set(priceId, { at: Date.now(), price })
    return price
  } catch (error) {
    logger.warn({ err: error, priceId }, 'could not read a Stripe price for the pricing cards')
    return { amount: fallbackAmount, currency: 'usd' }
  }
}

/** The pricing cards: the paid plans with at least one configured price. */
export async function pricingCards(plans: PlanDefinition[]): Promise<PricingCardDto[]> {
  if (!billingEnabled()) return []
  const cards: PricingCardDto[] = []
  for (const name of PAID_PLANS) {
    const plan = plans.find((p) => p.name === name)
    const monthlyId = priceIdOf(name, 'month')
    const yearlyId = priceIdOf(name, 'year')
    if (!plan || (!monthlyId && !yearlyId)) continue
    const [monthly, yearly] = await Promise.all([
      monthlyId ? priceOf(monthlyId, plan.priceMonthly) : null,
      yearlyId ? priceOf(yearlyId, null) : null,
    ])
    cards.push({
      plan: name,
      label: plan.label,
      mostPopular: PRICING_CARDS[name].mostPopular,
      conversations: plan.limits.conversations,
      seats: plan.limits.multipleUser,
      monthly,
      yearly,
    })
  }
  return cards
}

/** The workspace's latest subscription that still holds a plan, if any. */
export function liveSubscriptionOf(workspaceId: string) {
  return Subscription.query()
    .where('workspace_id', workspaceId)
    .whereIn('status', LIVE_STATUSES)
    .orderBy('updated_at', 'desc')
    .first()
}

export function toSubscriptionDto(subscription: Subscription): SubscriptionDto {
  return {
    plan: subscription.plan,
    period: subscription.period as BillingPeriod,
    status: subscription.status,
    currentPeriodEnd: subscription.currentPeriodEnd?.toISO() ?? null,
    cancelAt: subscription.cancelAt?.toISO() ?? null,
  }
}

/** Workspace ADMINs buy plans, open the portal and read invoices. */
export async function canManageBilling(user: User, workspace: Workspace) {
  return (await roleIn(user, workspace.id)) === 'ADMIN'
}

/**
 * Billing & Usage: the subscription and this month's chats against the limit of the
 * workspace's plan (planFor).
 */
export async function billingTab(user: User, workspace: Workspace): Promise<BillingTabDto> {
  const [subscription, used, { plan }, canManage] = await Promise.all([
    liveSubscriptionOf(workspace.id),
    chatsThisMonth(workspace.id),
    planFor(user, workspace),
    canManageBilling(user, workspace),
  ])
  const limit = plan.limits.conversations
  return {
    enabled: billingEnabled(),
    canManage,
    hasCustomer: !!workspace.stripeId,
    isPastDue: !!workspace.isPastDue,
    subscription: subscription ? toSubscriptionDto(subscription) : null,
    chats: { used, limit, ...chatUsageState(used, limit) },
  }
}

function isoOf(seconds: number | null | undefined) {
  return seconds ? new Date(seconds * 1000).toISOString() : null
}

export function toInvoiceDto(invoice: Stripe.Invoice): InvoiceDto {
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    status: invoice.status ?? null,
    paidAt: isoOf(invoice.status_transitions?.paid_at),
    createdAt: isoOf(invoice.created) ?? new Date(0).toISOString(),
    subtotal: invoice.subtotal,
    total: invoice.total,
    currency: invoice.currency,
    hostedUrl: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
  }
}

/** The workspace's invoices, newest first; none before it has a Stripe customer. */
export async function listInvoices(workspace: Workspace): Promise<InvoiceDto[]> {
  if (!workspace.stripeId || !billingEnabled()) return []
  const page = await stripeClient().invoices.list({ customer: workspace.stripeId, limit: 24 })
  return page.data.map(toInvoiceDto)
}
