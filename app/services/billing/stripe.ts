import Stripe from 'stripe'
import env from '#start/env'
import { PAID_PLANS, type BillingPeriod, type PaidPlanName } from '#shared/billing'

/**
 * Stripe's configuration (docs/billing.md): the secret key, the webhook signing secret and
 * a price id per plan and period. Billing is on only with the key, the secret and at least
 * one price: a key alone would take payments whose webhooks nobody could trust.
 */

type PriceEnv = `STRIPE_PRICE_${PaidPlanName}_${'MONTHLY' | 'YEARLY'}`

function priceEnvName(plan: PaidPlanName, period: BillingPeriod): PriceEnv {
  return `STRIPE_PRICE_${plan}_${period === 'month' ? 'MONTHLY' : 'YEARLY'}`
}

/** The configured price id of a plan and period, or null when it is not for sale. */
export function priceIdOf(plan: string, period: BillingPeriod): string | null {
  if (!(PAID_PLANS as readonly string[]).includes(plan)) return null
  return env.get(priceEnvName(plan as PaidPlanName, period)) || null
}

/** The plan and period a price id was configured for. */
export function planOfPrice(
  priceId: string | null | undefined
): { plan: PaidPlanName; period: BillingPeriod } | null {
  if (!priceId) return null
  for (const plan of PAID_PLANS) {
    for (const period of ['month', 'year'] as const) {
      if (priceIdOf(plan, period) === priceId) return { plan, period }
    }
  }
  return null
}

/** What is missing for billing to be on; empty once it is configured. */
export function missingBillingSettings(): string[] {
  const missing: string[] = []
  if (!env.get('STRIPE_SECRET_KEY')) missing.push('STRIPE_SECRET_KEY')
  if (!env.get('STRIPE_WEBHOOK_SECRET')) missing.push('STRIPE_WEBHOOK_SECRET')
  const anyPrice = PAID_PLANS.some((p) => priceIdOf(p, 'month') || priceIdOf(p, 'year'))
  if (!anyPrice) missing.push('STRIPE_PRICE_<PLAN>_<MONTHLY|YEARLY>')
  return missing
}

let cached: { key: string; api: string; client: Stripe } | null = null

/**
 * The SDK client for the configured key; STRIPE_API_URL points it at another server
 * (the tests' stand-in) through the SDK's host, port and protocol options.
 */
export function stripeClient(): Stripe {
  const key = env.get('STRIPE_SECRET_KEY')
  if (!key) throw new Error('Stripe is not configured (STRIPE_SECRET_KEY)')
  const api = env.get('STRIPE_API_URL') ?? ''
  if (cached && cached.key === key && cached.api === api) return cached.client
  const options: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 20_000 }
  if (api) {
    const url = new URL(api)
    const protocol = url.protocol === 'http:' ? 'http' : 'https'
    options.host = url.hostname
    options.port = url.port || (protocol === 'http' ? 80 : 443)
    options.protocol = protocol
  }
  cached = { key, api, client: new Stripe(key, options) }
  return cached.client
}

/** The webhook signing secret; null while unset. */
export function webhookSecret(): string | null {
  return env.get('STRIPE_WEBHOOK_SECRET') || null
}
