import type User from '#models/user'
import { findTemplateFor } from './theme_templates.js'

export class DeleteThemeTemplate {
  async handle(user: User, templateId: string) {
    const template = await findTemplateFor(user, templateId)
    await template.delete()
  }
}
