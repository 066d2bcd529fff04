import type User from '#models/user'
import type { BotTheme } from '#shared/bot/types'
import { findTemplateFor } from './theme_templates.js'

export class UpdateThemeTemplate {
  async handle(user: User, templateId: string, patch: { name?: string; theme?: BotTheme }) {
    const template = await findTemplateFor(user, templateId)
    if (patch.name !== undefined) template.name = patch.name
    if (patch.theme !== undefined) template.theme = patch.theme
    await template.save()
    return template
  }
}
