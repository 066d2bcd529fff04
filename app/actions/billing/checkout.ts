import type Stripe from 'stripe'
import AppError from '#exceptions/app_error'
import type Workspace from '#models/workspace'
import { billingEnabled } from '#services/plans'
import { liveSubscriptionOf } from '#services/billing/billing'
import { priceIdOf, stripeClient } from '#services/billing/stripe'
import type { BillingPeriod, PaidPlanName, TaxIdType } from '#shared/billing'

export interface CheckoutInput {
  plan: PaidPlanName
  period: BillingPeriod
  company: string
  email: string
  taxIdType?: TaxIdType
  taxId?: string
}

function notConfigured() {
  return new AppError('Billing is off', {
    status: 409,
    code: 'E_BILLING_OFF',
    description: 'Stripe is not configured on this server.',
  })
}

/**
 * The workspace's Stripe customer, created on the first checkout with the pre-checkout
 * details; later checkouts update its name and e-mail and add a tax id it lacks.
 */
async function customerFor(workspace: Workspace, input: CheckoutInput): Promise<string> {
  const stripe = stripeClient()
  const taxId =
    input.taxId && input.taxIdType ? { type: input.taxIdType, value: input.taxId } : null
  if (!workspace.stripeId) {
    const customer = await stripe.customers.create({
      name: input.company,
      email: input.email,
      metadata: { workspaceId: workspace.id },
      ...(taxId ? { tax_id_data: [taxId] } : {}),
    })
    workspace.stripeId = customer.id
    await workspace.save()
    return customer.id
  }
  await stripe.customers.update(workspace.stripeId, { name: input.company, email: input.email })
  if (taxId) {
    const existing = await stripe.customers.listTaxIds(workspace.stripeId, { limit: 100 })
    if (!existing.data.some((t) => t.type === taxId.type && t.value === taxId.value)) {
      await stripe.customers.createTaxId(workspace.stripeId, taxId)
    }
  }
  return workspace.stripeId
}

/**
 * Opens a Stripe Checkout session for a paid plan and period; the caller redirects the
 * browser to its URL. Checkout returns to `returnTo?stripe=<PLAN>`; the plan changes when the webhooks say it was paid, not on the return.
 */
export async function startCheckout(
  workspace: Workspace,
  input: CheckoutInput,
  urls: { returnTo: string; cancelTo: string }
): Promise<string> {
  if (!billingEnabled()) throw notConfigured()
  const price = priceIdOf(input.plan, input.period)
  if (!price) {
    throw new AppError('This plan is not for sale', {
      status: 422,
      field: 'period',
      description: 'No price is configured for this billing period.',
    })
  }
  if (await liveSubscriptionOf(workspace.id)) {
    throw new AppError('This workspace already has a subscription', {
      status: 409,
      code: 'E_SUBSCRIBED',
      description: 'Change or cancel it in the billing portal.',
    })
  }
  const customer = await customerFor(workspace, input)
  const metadata = { workspaceId: workspace.id, plan: input.plan, period: input.period }
  const withQuery = (url: string, query: Record<string, string>) => {
    const target = new URL(url)
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value)
    return target.toString()
  }
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'subscription',
    customer,
    client_reference_id: workspace.id,
    line_items: [{ price, quantity: 1 }],
    metadata,
    subscription_data: { metadata },
    allow_promotion_codes: true,
    // The tax id entered before checkout is kept on the customer.
    customer_update: { name: 'auto', address: 'auto' },
    tax_id_collection: { enabled: true },
    success_url: withQuery(urls.returnTo, { stripe: input.plan, workspaceId: workspace.id }),
    cancel_url: withQuery(urls.cancelTo, { stripe: 'cancel', workspaceId: workspace.id }),
  }
  const session = await stripeClient().checkout.sessions.create(params)
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL')
  return session.url
}

/** A customer portal session (payment method, plan change, cancellation, invoices). */
export async function openPortal(workspace: Workspace, returnTo: string): Promise<string> {
  if (!billingEnabled()) throw notConfigured()
  if (!workspace.stripeId) {
    throw new AppError('No billing account yet', {
      status: 409,
      code: 'E_NO_CUSTOMER',
      description: 'Choose a plan first: the billing portal opens after the first checkout.',
    })
  }
  const session = await stripeClient().billingPortal.sessions.create({
    customer: workspace.stripeId,
    return_url: returnTo,
  })
  return session.url
}
