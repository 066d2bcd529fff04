import type { HttpContext } from '@adonisjs/core/http'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { workspacesOf } from '#services/workspace_access'
import type { WorkspaceRole } from '#shared/workspace_roles'

export const CURRENT_WORKSPACE_KEY = 'currentWorkspaceId'

export interface CurrentWorkspace {
  workspace: Workspace
  role: WorkspaceRole
  all: { workspace: Workspace; role: WorkspaceRole }[]
}

/**
 * The workspace a page works in, first match wins: the workspace of the
 * bot being opened (`preferredId`), the workspaceId query parameter, the remembered choice
 * (the session; the browser mirrors it in local storage), else the first workspace.
 */
export async function resolveCurrentWorkspace(
  ctx: HttpContext,
  user: User,
  preferredId?: string | null
): Promise<CurrentWorkspace | null> {
  const cached = (ctx as any).__currentWorkspace as CurrentWorkspace | null | undefined
  if (cached !== undefined && !preferredId) return cached

  const rows = await workspacesOf(user)
  const all = rows.map((w) => ({ workspace: w, role: w.$extras.member_role as WorkspaceRole }))
  const candidates = [
    preferredId,
    ctx.request.qs().workspaceId,
    ctx.session?.get(CURRENT_WORKSPACE_KEY),
  ]
  let found = null
  for (const id of candidates) {
    if (typeof id !== 'string' || !id) continue
    found = all.find((a) => a.workspace.id === id)
    if (found) break
  }
  found = found ?? all[0]
  const result = found ? { ...found, all } : null
  if (result && ctx.session && ctx.session.get(CURRENT_WORKSPACE_KEY) !== result.workspace.id) {
    ctx.session.put(CURRENT_WORKSPACE_KEY, result.workspace.id)
  }
  ;(ctx as any).__currentWorkspace = result
  return result
}
