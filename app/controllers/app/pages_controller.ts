import type { HttpContext } from '@adonisjs/core/http'
import { billingEnabled, listPlans } from '#services/plans'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { billingTab, pricingCards } from '#services/billing/billing'
import { missingBillingSettings } from '#services/billing/stripe'
import { isAdminEmail } from '#services/admins'

/** Pages of the shell whose content arrives with later features show their empty states. */
export default class PagesController {
  async plans(ctx: HttpContext) {
    const plans = await listPlans()
    const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
    const enabled = billingEnabled()
    return ctx.inertia.render('bots/plans', {
      plans,
      billingEnabled: enabled,
      // What an admin still has to set; nothing secret, only the variable names.
      billingMissing:
        enabled || !isAdminEmail(ctx.auth.user!.email) ? [] : missingBillingSettings(),
      pricing: await pricingCards(plans),
      billing: current && enabled ? await billingTab(ctx.auth.user!, current.workspace) : null,
    })
  }

  async suspended({ inertia }: HttpContext) {
    return inertia.render('workspace/suspended', {})
  }

  async pastDue(ctx: HttpContext) {
    const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
    return ctx.inertia.render('workspace/past_due', {
      billing: current ? await billingTab(ctx.auth.user!, current.workspace) : null,
    })
  }
}
