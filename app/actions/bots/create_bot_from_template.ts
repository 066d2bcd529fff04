import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/create_bot'
import { importBot } from '#shared/bot/parse'
import { templateOrFail } from './bot_templates.js'

export class CreateBotFromTemplate {
  /** Goes through the file import's path (importBot, then CreateBot), so both stay alike. */
  async handle(
    user: User,
    workspace: Workspace,
    input: { templateId: string; folderId?: string | null }
  ) {
    const template = await templateOrFail(input.templateId)
    const content = importBot(structuredClone(template.bot))
    return new CreateBot().handle(user, workspace, {
      name: template.name,
      folderId: input.folderId ?? null,
      content,
    })
  }
}
