import ThemeTemplate from '#models/theme_template'
import type User from '#models/user'
import { findWorkspaceFor } from '#services/workspace_access'
import type { BotTheme } from '#shared/bot/types'
import { assertWrites } from './theme_templates.js'

export class CreateThemeTemplate {
  async handle(user: User, workspaceId: string, input: { name: string; theme: BotTheme }) {
    const { workspace, role } = await findWorkspaceFor(user, workspaceId)
    assertWrites(role)
    return ThemeTemplate.create({ workspaceId: workspace.id, name: input.name, theme: input.theme })
  }
}
