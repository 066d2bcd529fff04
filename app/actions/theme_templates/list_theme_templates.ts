import ThemeTemplate from '#models/theme_template'
import type User from '#models/user'
import { findWorkspaceFor } from '#services/workspace_access'
import { assertWrites } from './theme_templates.js'

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
