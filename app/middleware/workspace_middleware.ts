import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { isAdminEmail } from '#services/admins'

// The billing tab and portal stay open: they are how a failed payment is fixed.
const PAST_DUE_ALLOWED = [
  '/bots/plans',
  '/past-due',
  '/settings/account/billing',
  '/billing/portal',
]

/**
 * App pages run in a workspace. A suspended workspace leads to /suspended and a past-due one
 * to /past-due, except the plans page. The instance admin
 * pages work on no workspace: an admin whose current workspace is suspended still reaches
 * /admin/workspaces to lift it.
 */
export default class WorkspaceMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const user = ctx.auth.user!
    const current = await resolveCurrentWorkspace(ctx, user)
    const path = ctx.request.url()
    if (path.startsWith('/admin/') && isAdminEmail(user.email)) return next()
    if (current?.workspace.isSuspended && path !== '/suspended') {
      return ctx.response.redirect('/suspended')
    }
    if (
      current?.workspace.isPastDue &&
      !current.workspace.isSuspended &&
      !PAST_DUE_ALLOWED.includes(path)
    ) {
      return ctx.response.redirect('/past-due')
    }
    return next()
  }
}
