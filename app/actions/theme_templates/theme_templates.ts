import ThemeTemplate from '#models/theme_template'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type WorkspaceRole } from '#shared/workspace_roles'

/*
 * "My templates" of the Theme tab: themes saved per workspace. Only members who may edit
 * bots (write mode) see and change them; other workspaces' templates are "not found".
 */

const guestsError = () => AppError.forbidden('Guests cannot change theme templates.')

export function assertWrites(role: WorkspaceRole) {
  if (userModeForRole(role) !== 'write') throw guestsError()
}

export async function findTemplateFor(user: User, templateId: string) {
  const template = await ThemeTemplate.find(templateId)
  const role = template ? await roleIn(user, template.workspaceId) : null
  if (!template || role === null) throw AppError.notFound('Theme template not found')
  assertWrites(role)
  return template
}
