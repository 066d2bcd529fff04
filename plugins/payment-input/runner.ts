import Stripe from 'stripe'
import type { CredentialsOf, InputParser, OptionsOf, Runner } from '#sdk/plugin'
import type plugin from './index.js'

type Options = OptionsOf<typeof plugin>
type Credentials = CredentialsOf<typeof plugin>

/**
 * Where the Stripe client sends its requests. Tests point it at a local stand-in; the
 * runner never reads it from the environment, so a deployment cannot be redirected.
 */
let stripeApiUrl: URL | undefined

export function setStripeApiUrl(url: string | undefined) {
  stripeApiUrl = url ? new URL(url) : undefined
  clients.clear()
}

// One client per key: building one per chat turn would redo its setup every time.
const clients = new Map<string, Stripe>()
const MAX_CLIENTS = 100

function clientFor(secretKey: string) {
  let client = clients.get(secretKey)
  if (!client) {
    if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!)
    client = new Stripe(secretKey, {
      maxNetworkRetries: 1,
      timeout: 15_000,
      telemetry: false,
      ...(stripeApiUrl
        ? {
            host: stripeApiUrl.hostname,
            port: stripeApiUrl.port || (stripeApiUrl.protocol === 'http:' ? 80 : 443),
            protocol: stripeApiUrl.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    })
    clients.set(secretKey, client)
  }
  return client
}

/** The test pair in preview when it is complete, else the live pair. */
export function keysFor(credentials: Credentials, isPreview: boolean) {
  if (isPreview && credentials.testSecretKey && credentials.testPublicKey) {
    return { secretKey: credentials.testSecretKey, publicKey: credentials.testPublicKey }
  }
  if (!credentials.liveSecretKey || !credentials.livePublicKey) return undefined
  return { secretKey: credentials.liveSecretKey, publicKey: credentials.livePublicKey }
}

// Stripe counts these currencies in whole units, and these in thousandths.
const ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' ')
)
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '))

/** The amount in the currency's smallest unit, as Stripe expects it. */
export function amountInMinorUnits(amount: string, currency: string): number | undefined {
  const text = amount.trim().replace(/\s/g, '')
  // A decimal comma is common in amounts typed by builders ("30,50").
  const normalized = /^\d+,\d{1,3}$/.test(text) ? text.replace(',', '.') : text
  if (!/^\d+(?:\.\d+)?$/.test(normalized)) return undefined
  const value = Number(normalized)
  const code = currency.toUpperCase()
  const decimals = ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2
  const minor = Math.round(value * 10 ** decimals)
  return minor > 0 ? minor : undefined
}

export function amountLabel(minor: number, currency: string) {
  const code = currency.toUpperCase()
  const decimals = ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2
  const amount = minor / 10 ** decimals
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(amount)
  } catch {
    return `${amount.toFixed(decimals)} ${code}`
  }
}

const filled = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined

function detailsOf(options: Options) {
  const info = options.additionalInformation ?? {}
  const address = info.address ?? {}
  const params: Partial<Stripe.PaymentIntentCreateParams> = {}
  const email = filled(info.email)
  if (email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) params.receipt_email = email
  const description = filled(info.description)
  if (description) params.description = description
  const name = filled(info.name)
  const line1 = filled(address.line1)
  // Stripe refuses a shipping address without a name and a first line.
  if (name && line1) {
    params.shipping = {
      name,
      phone: filled(info.phoneNumber),
      address: {
        line1,
        line2: filled(address.line2),
        city: filled(address.city),
        state: filled(address.state),
        postal_code: filled(address.postalCode),
        country: filled(address.country),
      },
    }
  }
  return params
}

/** Creates the PaymentIntent the browser confirms with Stripe.js. */
export const run: Runner<typeof plugin> = async ({ options, credentials, bot }) => {
  const keys = keysFor(credentials, bot?.isPreview ?? false)
  if (!keys) throw new Error('Payment: the Stripe account has no secret and publishable keys')
  const currency = filled(options.currency) ?? 'USD'
  const amount = amountInMinorUnits(String(options.amount ?? ''), currency)
  if (amount === undefined) {
    throw new Error(`Payment: "${options.amount ?? ''}" is not a valid amount`)
  }
  const intent = await clientFor(keys.secretKey).paymentIntents.create({
    amount,
    currency: currency.toLowerCase(),
    automatic_payment_methods: { enabled: true },
    metadata: {
      ...(bot?.botId ? { botId: bot.botId } : {}),
      ...(bot?.resultId ? { resultId: bot.resultId } : {}),
      ...(bot?.block.id ? { blockId: bot.block.id } : {}),
    },
    ...detailsOf(options),
  })
  if (!intent.client_secret) throw new Error('Payment: Stripe returned no client secret')
  return {
    input: {
      // The intent's id comes back with the answer, so the payment is checked server side.
      options: { ...options, paymentIntentId: intent.id },
      runtimeOptions: {
        paymentIntentSecret: intent.client_secret,
        publicKey: keys.publicKey,
        amountLabel: amountLabel(amount, currency),
      },
    },
  }
}

// 'processing' (bank debits) and 'requires_capture' (manual capture) are paid from the
// visitor's side: the money is on its way.
const PAID = new Set(['succeeded', 'processing', 'requires_capture'])

/**
 * 'Success' is what the browser sends once Stripe.js confirmed the payment. A client can
 * send it without paying, so the status of the intent created by `run` is asked from Stripe.
 */
export const parse: InputParser<typeof plugin> = async ({ answer, options, credentials, bot }) => {
  if ((answer.text ?? '').trim() !== 'Success') {
    return { status: 'fail', reason: 'The payment was not confirmed' }
  }
  const intentId = (options as Options & { paymentIntentId?: unknown }).paymentIntentId
  if (typeof intentId !== 'string' || intentId === '') {
    return { status: 'fail', reason: 'No payment was started for this answer' }
  }
  const keys = keysFor(credentials, bot?.isPreview ?? false)
  if (!keys) return { status: 'fail', reason: 'The Stripe account has no keys' }
  const intent = await clientFor(keys.secretKey).paymentIntents.retrieve(intentId)
  if (!PAID.has(intent.status)) {
    return { status: 'fail', reason: `The payment is ${intent.status.replaceAll('_', ' ')}` }
  }
  return { status: 'success', value: 'Success' }
}
