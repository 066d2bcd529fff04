import type { HttpContext } from '@adonisjs/core/http'
import { toUserDto } from '#dtos/user_dto'
import { toWorkspaceSummaryDto } from '#dtos/workspace_dto'
import { workspacesOf } from '#services/workspace_access'
import type { WorkspaceRole } from '#shared/workspace_roles'

export default class V1Controller {
  async me({ auth, response }: HttpContext) {
    return response.ok({ user: toUserDto(auth.user!) })
  }

  async workspaces({ auth, response }: HttpContext) {
    const rows = await workspacesOf(auth.user!)
    return response.ok({
      workspaces: rows.map((w) => toWorkspaceSummaryDto(w, w.$extras.member_role as WorkspaceRole)),
    })
  }
}
