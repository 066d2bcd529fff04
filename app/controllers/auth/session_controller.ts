import type { HttpContext } from '@adonisjs/core/http'
import string from '@adonisjs/core/helpers/string'
import { toUserDto } from '#dtos/user_dto'
import { toWorkspaceSummaryDto } from '#dtos/workspace_dto'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { SESSION_AGE } from '#config/session'

/**
 * GET /api/auth/session: the signed-in session as JSON, for a tab that
 * comes back to the foreground and wants to know whether it is still signed in, and as whom.
 *
 * `?update` asks for a refreshed session. Nothing is stored for it: the user is read from the
 * database on every request already (so the answer reflects a rename or a plan change made in
 * another tab), and the session cookie is written back with a fresh lifetime whenever a
 * request uses the session. The query parameter is accepted for clients that send it; a GET
 * must not write (tests/functional/get_routes_write_nothing.spec.ts).
 */
export default class SessionController {
  async show(ctx: HttpContext) {
    const user = ctx.auth.user!
    const current = await resolveCurrentWorkspace(ctx, user)
    const expires = new Date(Date.now() + string.milliseconds.parse(SESSION_AGE)).toISOString()
    return ctx.response.ok({
      user: toUserDto(user),
      currentWorkspace: current ? toWorkspaceSummaryDto(current.workspace, current.role) : null,
      expires,
    })
  }
}
