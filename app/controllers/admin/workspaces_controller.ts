import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import User from '#models/user'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import {
  grantCredits,
  setPlan,
  setSuspended,
  type AdminActor,
} from '#actions/admin/administer_plans'
import { resetTwoFactor } from '#actions/admin/reset_two_factor'
import { recentAudit, searchUsers, searchWorkspaces } from '#services/plan_admin_listing'
import { billingEnabled, listPlans } from '#services/plans'
import {
  grantCreditsValidator,
  planAdminSearchValidator,
  setPlanValidator,
  setSuspendedValidator,
} from '#validators/plan_admin'

/** Back to the search the change was made from: back() alone drops the referrer's query. */
const backToSearch = (response: HttpContext['response']) => response.redirect().withQs().back()

const actorOf = (user: User): AdminActor => ({ id: user.id, label: user.email })

/** The plan input's day ends at midnight UTC at its end, so the plan lasts that whole day. */
const endOfDay = (date?: Date | null) =>
  date ? DateTime.fromJSDate(date).setZone('utc').endOf('day') : null

/**
 * /admin/workspaces: instance admins (ADMIN_EMAILS) search workspaces and accounts, see
 * their usage against their plans, set plans and end dates, suspend and grant AI credits
 * (`node ace workspace:plan` does the same from a shell).
 */
export default class AdminWorkspacesController {
  async index({ bouncer, inertia, request }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const { q } = await request.validateUsing(planAdminSearchValidator, {
      data: request.qs(),
    })
    return inertia.render('admin/workspaces', {
      q: q ?? '',
      workspaces: await searchWorkspaces(q || undefined),
      users: await searchUsers(q || undefined),
      plans: await listPlans(),
      audit: await recentAudit(),
      billingEnabled: billingEnabled(),
    })
  }

  async setWorkspacePlan({ auth, bouncer, params, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const workspace = await findOr404(Workspace, params.id)
    const { plan, endsAt } = await request.validateUsing(setPlanValidator)
    await setPlan(
      actorOf(auth.user!),
      { type: 'workspace', model: workspace },
      {
        plan,
        endsAt: endOfDay(endsAt),
      }
    )
    return backToSearch(response)
  }

  async setSuspended({ auth, bouncer, params, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const workspace = await findOr404(Workspace, params.id)
    const { suspended } = await request.validateUsing(setSuspendedValidator)
    await setSuspended(actorOf(auth.user!), workspace, suspended)
    return backToSearch(response)
  }

  async setUserPlan({ auth, bouncer, params, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const user = await findOr404(User, params.id)
    const { plan, endsAt } = await request.validateUsing(setPlanValidator)
    await setPlan(
      actorOf(auth.user!),
      { type: 'user', model: user },
      {
        plan,
        endsAt: endOfDay(endsAt),
      }
    )
    return backToSearch(response)
  }

  async resetTwoFactor({ auth, bouncer, params, response, session }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const user = await findOr404(User, params.id)
    const reset = await resetTwoFactor(actorOf(auth.user!), user)
    session.flash(
      'toast',
      reset
        ? { type: 'success', title: 'Two-factor sign-in reset', description: user.email }
        : { type: 'info', title: 'Two-factor sign-in was not on', description: user.email }
    )
    return backToSearch(response)
  }

  async grantCredits({ auth, bouncer, params, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const user = await findOr404(User, params.id)
    const { amount } = await request.validateUsing(grantCreditsValidator)
    await grantCredits(actorOf(auth.user!), user, amount)
    return backToSearch(response)
  }
}

async function findOr404<T extends typeof User | typeof Workspace>(
  model: T,
  id: unknown
): Promise<InstanceType<T>> {
  const row = typeof id === 'string' ? await model.find(id) : null
  if (!row) throw AppError.notFound()
  return row as InstanceType<T>
}
