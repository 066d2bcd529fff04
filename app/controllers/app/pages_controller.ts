import type { HttpContext } from '@adonisjs/core/http'
import { billingEnabled, listPlans } from '#services/plans'

/** Pages of the shell whose content arrives with later features show their empty states. */
export default class PagesController {
  async plans({ inertia }: HttpContext) {
    return inertia.render('bots/plans', {
      plans: await listPlans(),
      billingEnabled: billingEnabled(),
    })
  }

  async suspended({ inertia }: HttpContext) {
    return inertia.render('workspace/suspended', {})
  }

  async pastDue({ inertia }: HttpContext) {
    return inertia.render('workspace/past_due', {})
  }
}
