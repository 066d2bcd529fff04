import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import AppError from '#exceptions/app_error'
import { openPortal, startCheckout } from '#actions/billing/checkout'
import { handleStripeEvent, verifyEvent } from '#actions/billing/handle_stripe_event'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { checkoutValidator } from '#validators/billing'

/** The app's own address for Stripe's return links: APP_URL, else the request's origin. */
function appOrigin(ctx: HttpContext) {
  const configured = env.get('APP_URL')
  if (configured) return configured.replace(/\/+$/, '')
  return `${ctx.request.protocol()}://${ctx.request.host()}`
}

async function billedWorkspace(ctx: HttpContext) {
  const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
  if (!current) throw AppError.notFound('No workspace')
  await ctx.bouncer.with('WorkspacePolicy').authorize('manageBilling', current.workspace)
  return current.workspace
}

/**
 * Stripe billing of the current workspace (docs/billing.md): Checkout and the customer
 * portal leave the app (Inertia location visits); the webhook brings the results back.
 */
export default class BillingController {
  async checkout(ctx: HttpContext) {
    const workspace = await billedWorkspace(ctx)
    const input = await ctx.request.validateUsing(checkoutValidator)
    const origin = appOrigin(ctx)
    const url = await startCheckout(workspace, input, {
      returnTo: `${origin}/bots/plans`,
      cancelTo: `${origin}/bots/plans`,
    })
    return ctx.inertia.location(url)
  }

  async portal(ctx: HttpContext) {
    const workspace = await billedWorkspace(ctx)
    const url = await openPortal(workspace, `${appOrigin(ctx)}/settings/account/billing`)
    return ctx.inertia.location(url)
  }

  /** POST /api/stripe/webhook: Stripe's signed events, verified on the raw body. */
  async webhook({ request, response }: HttpContext) {
    const event = verifyEvent(request.raw() ?? '', request.header('stripe-signature'))
    const outcome = await handleStripeEvent(event)
    return response.ok({ received: true, outcome })
  }
}
