import { randomBytes } from 'node:crypto'
import qs from 'qs'
import Stripe from 'stripe'
import { sendJson, startStandIn, type StandInExchange } from './stand_in_server.js'

/**
 * A local stand-in for the part of Stripe's HTTP API the billing uses (docs/billing.md):
 * customers and their tax ids, prices, Checkout sessions, subscriptions, invoices and
 * customer portal sessions under /v1, with form-encoded bodies, Bearer keys and Stripe's
 * error shape. It also plays Stripe's hosted pages: /checkout/{id} has Pay and Cancel, and
 * paying creates the subscription and its paid invoice, sends the signed webhook events
 * Stripe sends (checkout.session.completed, customer.subscription.created, invoice.paid)
 * to the configured endpoint, then returns the browser to success_url.
 */

export interface StripeCall {
  method: string
  path: string
  query: Record<string, any>
  body: Record<string, any>
  authorization: string | undefined
  stripeVersion: string | undefined
}

export interface StandInPrice {
  id: string
  unit_amount: number
  currency: string
  interval: 'month' | 'year'
}

const DAY = 24 * 60 * 60

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`
const now = () => Math.floor(Date.now() / 1000)

function parseForm(text: string) {
  return text ? (qs.parse(text, { depth: 10, arrayLimit: 100 }) as Record<string, any>) : {}
}

function list<T>(url: string, data: T[]) {
  return { object: 'list', url, has_more: false, data }
}

/** An event as Stripe sends it to a webhook endpoint. */
export function stripeEvent(type: string, object: unknown, id = newId('evt')) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  }
}

/** The Stripe-Signature header of `payload` under `secret`, made by the official SDK. */
export function signStripePayload(payload: string, secret: string, timestamp?: number) {
  return new Stripe('sk_test_signing').webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  })
}

/** Posts an event to a webhook URL signed with `secret`, as Stripe does. */
export async function deliverStripeEvent(url: string, event: unknown, secret: string) {
  const payload = JSON.stringify(event, null, 2)
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signStripePayload(payload, secret),
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    },
    body: payload,
  })
}

export async function startStripeStandIn(options: {
  secretKey: string
  prices: StandInPrice[]
  /** Where paying on the hosted checkout page sends its events. */
  webhook?: { url: string; secret: string }
}) {
  const calls: StripeCall[] = []
  const customers = new Map<string, any>()
  const taxIds = new Map<string, any[]>()
  const sessions = new Map<string, any>()
  const subscriptions = new Map<string, any>()
  const invoices: any[] = []
  const portals = new Map<string, any>()
  /** Events sent to the webhook endpoint, with the app's answer. */
  const delivered: { event: any; status: number; body: string }[] = []
  let invoiceNumber = 1
  let baseUrl = ''

  function error(res: StandInExchange['res'], status: number, message: string, param?: string) {
    const type = status === 401 ? 'invalid_request_error' : 'invalid_request_error'
    sendJson(res, status, { error: { type, message, ...(param ? { param } : {}) } })
  }

  function priceObject(price: StandInPrice) {
    return {
      id: price.id,
      object: 'price',
      active: true,
      currency: price.currency,
      unit_amount: price.unit_amount,
      type: 'recurring',
      recurring: { interval: price.interval, interval_count: 1 },
    }
  }

  async function deliver(event: any) {
    if (!options.webhook) return
    const response = await deliverStripeEvent(options.webhook.url, event, options.webhook.secret)
    delivered.push({ event, status: response.status, body: await response.text() })
  }

  /** What paying on the hosted page does: a subscription, its paid invoice, the events. */
  async function pay(sessionId: string) {
    const session = sessions.get(sessionId)
    if (!session || session.status !== 'open') throw new Error(`no open session ${sessionId}`)
    const price = options.prices.find((p) => p.id === session.line_items[0].price)!
    const start = now()
    const end = start + (price.interval === 'year' ? 365 : 30) * DAY
    const subscription: Record<string, any> = {
      id: newId('sub'),
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      metadata: session.subscription_data?.metadata ?? {},
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      items: list('/v1/subscription_items', [
        {
          id: newId('si'),
          object: 'subscription_item',
          price: priceObject(price),
          quantity: 1,
          current_period_start: start,
          current_period_end: end,
        },
      ]),
    }
    subscriptions.set(subscription.id, subscription)
    const invoice = invoiceFor(subscription, price, start, end, 'paid')
    session.status = 'complete'
    session.payment_status = 'paid'
    session.subscription = subscription.id
    await deliver(stripeEvent('checkout.session.completed', session))
    await deliver(stripeEvent('customer.subscription.created', subscription))
    await deliver(stripeEvent('invoice.paid', invoice))
    return { session, subscription, invoice }
  }

  function invoiceFor(
    subscription: any,
    price: StandInPrice,
    start: number,
    end: number,
    status: 'paid' | 'open'
  ) {
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      number: `STANDIN-${String(invoiceNumber++).padStart(4, '0')}`,
      status,
      currency: price.currency,
      subtotal: price.unit_amount,
      total: price.unit_amount,
      amount_paid: status === 'paid' ? price.unit_amount : 0,
      created: start,
      status_transitions: { paid_at: status === 'paid' ? start : null },
      hosted_invoice_url: `${baseUrl}/invoices/${invoiceNumber}`,
      invoice_pdf: `${baseUrl}/invoices/${invoiceNumber}.pdf`,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      lines: list('/v1/invoices/lines', [
        { id: newId('il'), object: 'line_item', amount: price.unit_amount, period: { start, end } },
      ]),
    }
    invoices.unshift(invoice)
    return invoice
  }

  function page(res: StandInExchange['res'], html: string) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><meta name="viewport" content="width=device-width">${html}`)
  }

  const standIn = await startStandIn(
    async ({ req, res, url, text }) => {
      const method = req.method ?? 'GET'
      const path = url.pathname

      // The hosted pages a browser is sent to.
      const hosted = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path)
      if (hosted) {
        const session = sessions.get(hosted[1])
        if (!session) return error(res, 404, 'No such checkout session')
        if (hosted[2] && method === 'POST') {
          await pay(session.id)
          res.writeHead(303, { location: session.success_url })
          return res.end()
        }
        return page(
          res,
          `<title>Stand-in Checkout</title><h1>Pay ${session.customer_email ?? ''}</h1>
          <p data-testid="checkout-price">${session.line_items[0].price}</p>
          <form method="post" action="/checkout/${session.id}/pay"><button>Pay</button></form>
          <a href="${session.cancel_url}">Cancel</a>`
        )
      }
      if (/^\/portal\/[^/]+$/.test(path)) {
        const portal = portals.get(path.split('/')[2])
        if (!portal) return error(res, 404, 'No such portal session')
        return page(res, `<title>Stand-in Portal</title><a href="${portal.return_url}">Back</a>`)
      }

      if (!path.startsWith('/v1/')) return error(res, 404, `Unrecognized request URL (${path})`)
      const body = method === 'GET' || method === 'DELETE' ? {} : parseForm(text)
      const query = parseForm(url.search.slice(1))
      calls.push({
        method,
        path,
        query,
        body,
        authorization: req.headers.authorization,
        stripeVersion: req.headers['stripe-version'] as string | undefined,
      })
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        return error(res, 401, 'Invalid API Key provided')
      }
      if (
        method === 'POST' &&
        text &&
        !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
      ) {
        return error(res, 400, 'Invalid request: bodies are form-encoded')
      }

      let m: RegExpExecArray | null
      if (method === 'POST' && path === '/v1/customers') {
        if (!body.email) return error(res, 400, 'Missing email', 'email')
        const customer = {
          id: newId('cus'),
          object: 'customer',
          name: body.name ?? null,
          email: body.email,
          metadata: body.metadata ?? {},
        }
        customers.set(customer.id, customer)
        taxIds.set(
          customer.id,
          (body.tax_id_data ?? []).map((t: any) => ({ id: newId('txi'), object: 'tax_id', ...t }))
        )
        return sendJson(res, 200, customer)
      }
      if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path)) && method === 'POST') {
        const customer = customers.get(m[1])
        if (!customer) return error(res, 404, `No such customer: '${m[1]}'`, 'customer')
        Object.assign(customer, body)
        return sendJson(res, 200, customer)
      }
      if ((m = /^\/v1\/customers\/([^/]+)\/tax_ids$/.exec(path))) {
        if (!customers.has(m[1])) return error(res, 404, `No such customer: '${m[1]}'`)
        const ids = taxIds.get(m[1]) ?? []
        if (method === 'GET') return sendJson(res, 200, list(path, ids))
        if (!body.type || !body.value) return error(res, 400, 'Missing type or value', 'type')
        const created = { id: newId('txi'), object: 'tax_id', type: body.type, value: body.value }
        ids.push(created)
        taxIds.set(m[1], ids)
        return sendJson(res, 200, created)
      }
      if ((m = /^\/v1\/prices\/([^/]+)$/.exec(path)) && method === 'GET') {
        const price = options.prices.find((p) => p.id === m![1])
        if (!price) return error(res, 404, `No such price: '${m[1]}'`, 'price')
        return sendJson(res, 200, priceObject(price))
      }
      if (method === 'POST' && path === '/v1/checkout/sessions') {
        const lineItems = Object.values(body.line_items ?? {}) as any[]
        const price = options.prices.find((p) => p.id === lineItems[0]?.price)
        if (!price) return error(res, 400, `No such price: '${lineItems[0]?.price}'`, 'line_items')
        if (body.customer && !customers.has(body.customer)) {
          return error(res, 400, `No such customer: '${body.customer}'`, 'customer')
        }
        if (!body.success_url) return error(res, 400, 'Missing success_url', 'success_url')
        const id = newId('cs_test')
        const session = {
          id,
          object: 'checkout.session',
          mode: body.mode,
          status: 'open',
          payment_status: 'unpaid',
          customer: body.customer ?? null,
          customer_email: customers.get(body.customer)?.email ?? null,
          client_reference_id: body.client_reference_id ?? null,
          metadata: body.metadata ?? {},
          subscription_data: body.subscription_data ?? {},
          subscription: null,
          line_items: lineItems,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          url: `${baseUrl}/checkout/${id}`,
        }
        sessions.set(id, session)
        return sendJson(res, 200, session)
      }
      if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)) && method === 'GET') {
        const subscription = subscriptions.get(m[1])
        if (!subscription) return error(res, 404, `No such subscription: '${m[1]}'`)
        return sendJson(res, 200, subscription)
      }
      if (method === 'GET' && path === '/v1/invoices') {
        const mine = invoices.filter((i) => !query.customer || i.customer === query.customer)
        return sendJson(res, 200, list(path, mine.slice(0, Number(query.limit ?? 10))))
      }
      if (method === 'POST' && path === '/v1/billing_portal/sessions') {
        if (!customers.has(body.customer)) {
          return error(res, 400, `No such customer: '${body.customer}'`, 'customer')
        }
        const id = newId('bps')
        const portal = {
          id,
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url,
          url: `${baseUrl}/portal/${id}`,
        }
        portals.set(id, portal)
        return sendJson(res, 200, portal)
      }
      return error(res, 404, `Unrecognized request URL (${method}: ${path})`)
    },
    { record: () => undefined }
  )
  baseUrl = standIn.baseUrl

  return {
    ...standIn,
    calls,
    customers,
    sessions,
    subscriptions,
    invoices,
    delivered,
    pay,
    /** A subscription as Stripe would describe it after a change (portal, renewal). */
    updateSubscription(id: string, changes: Record<string, unknown>) {
      const subscription = subscriptions.get(id)
      Object.assign(subscription, changes)
      return subscription
    },
    /** The next renewal's invoice, paid or failed. */
    renewalInvoice(subscriptionId: string, status: 'paid' | 'open') {
      const subscription = subscriptions.get(subscriptionId)
      const item = subscription.items.data[0]
      const price = options.prices.find((p) => p.id === item.price.id)!
      const start = item.current_period_end
      const end = start + (price.interval === 'year' ? 365 : 30) * DAY
      return invoiceFor(subscription, price, start, end, status)
    },
  }
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>
