import env from '#start/env'
import { forgetPrices } from '#services/billing/billing'
import { startStripeStandIn, type StripeStandIn } from '#tests/stand_ins/stripe'

/*
 * Billing switched on against the Stripe stand-in (docs/billing.md): the functional and the
 * browser tests configure the app the same way.
 */

export const STRIPE_TEST = {
  SECRET_KEY: 'sk_test_flowcraft_billing',
  WEBHOOK_SECRET: 'whsec_flowcraft_billing_test_secret',
  PRICES: {
    STRIPE_PRICE_BASIC_MONTHLY: 'price_starter_month',
    STRIPE_PRICE_BASIC_YEARLY: 'price_starter_year',
    STRIPE_PRICE_STANDARD_MONTHLY: 'price_pro_month',
    STRIPE_PRICE_STANDARD_YEARLY: 'price_pro_year',
  },
}

type Vars = Record<string, string | undefined>

/** Sets environment variables for this process; the returned function puts them back. */
export function putEnv(vars: Vars) {
  const saved: Vars = {}
  for (const [key, value] of Object.entries(vars)) {
    saved[key] = env.get(key as any) as string | undefined
    env.set(key as any, value as any)
    // Env.set writes process.env too, where undefined would become the text "undefined".
    if (value === undefined) delete process.env[key]
  }
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      env.set(key as any, value as any)
      if (value === undefined) delete process.env[key]
    }
  }
}

/**
 * Starts the stand-in with the four prices, points the app at it and turns billing on. Paying on
 * the stand-in's hosted page delivers Stripe's signed events to this app's webhook.
 */
export async function startStripeBilling(): Promise<{
  stripe: StripeStandIn
  stop: () => Promise<void>
}> {
  const { SECRET_KEY, WEBHOOK_SECRET, PRICES } = STRIPE_TEST
  const appUrl = `http://127.0.0.1:${process.env.PORT}`
  const stripe = await startStripeStandIn({
    secretKey: SECRET_KEY,
    prices: [
      {
        id: PRICES.STRIPE_PRICE_BASIC_MONTHLY,
        unit_amount: 3900,
        currency: 'usd',
        interval: 'month',
      },
      {
        id: PRICES.STRIPE_PRICE_BASIC_YEARLY,
        unit_amount: 39000,
        currency: 'usd',
        interval: 'year',
      },
      {
        id: PRICES.STRIPE_PRICE_STANDARD_MONTHLY,
        unit_amount: 8900,
        currency: 'usd',
        interval: 'month',
      },
      {
        id: PRICES.STRIPE_PRICE_STANDARD_YEARLY,
        unit_amount: 89000,
        currency: 'usd',
        interval: 'year',
      },
    ],
    webhook: { url: `${appUrl}/api/stripe/webhook`, secret: WEBHOOK_SECRET },
  })
  const restoreEnv = putEnv({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.baseUrl,
    APP_URL: appUrl,
    ...PRICES,
  })
  forgetPrices()
  return {
    stripe,
    stop: async () => {
      restoreEnv()
      forgetPrices()
      await stripe.close()
    },
  }
}
