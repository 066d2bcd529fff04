import ThemeTemplate from '#models/theme_template'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { findWorkspaceFor, roleIn } from '#services/workspace_access'
import { userModeForRole, type WorkspaceRole } from '#shared/workspace_roles'
import type { BotTheme } from '#shared/bot/types'

/*
 * "My templates" of the Theme tab: themes saved per workspace. Only members who may edit
 * bots (write mode) see and change them; other workspaces' templates are "not found".
 */

const guestsError = () => AppError.forbidden('Guests cannot change theme templates.')

function assertWrites(role: WorkspaceRole) {
  if (userModeForRole(role) !== 'write') throw guestsError()
}

async function findTemplateFor(user: User, templateId: string) {
  const template = await ThemeTemplate.find(templateId)
  const role = template ? await roleIn(user, template.workspaceId) : null
  if (!template || role === null) throw AppError.notFound('Theme template not found')
  assertWrites(role)
  return template
}

export class ListThemeTemplates {
  async handle(user: User, workspaceId: string) {
    const { role } = await findWorkspaceFor(user, workspaceId)
    assertWrites(role)
    return ThemeTemplate.query()
      .where('workspace_id', workspaceId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
  }
}

export class CreateThemeTemplate {
  async handle(user: User, workspaceId: string, input: { name: string; theme: BotTheme }) {
    const { workspace, role } = await findWorkspaceFor(user, workspaceId)
    assertWrites(role)
    return ThemeTemplate.create({ workspaceId: workspace.id, name: input.name, theme: input.theme })
  }
}

export class UpdateThemeTemplate {
  async handle(user: User, templateId: string, patch: { name?: string; theme?: BotTheme }) {
    const template = await findTemplateFor(user, templateId)
    if (patch.name !== undefined) template.name = patch.name
    if (patch.theme !== undefined) template.theme = patch.theme
    await template.save()
    return template
  }
}

export class DeleteThemeTemplate {
  async handle(user: User, templateId: string) {
    const template = await findTemplateFor(user, templateId)
    await template.delete()
  }
}
