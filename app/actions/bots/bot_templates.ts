import AppError from '#exceptions/app_error'
import type { EngineBot } from '#engine/bot/ports'
import { perRegistry } from '#services/plugin_registry'
import { enginePorts } from '#services/chat/engine_ports'
import { findTemplate, templateEngineId, type BotTemplate } from '#services/bot_templates'

export async function templateOrFail(templateId: string) {
  const template = await findTemplate(templateId)
  if (!template) throw AppError.notFound('Template not found')
  return template
}

/**
 * The template's bot as the engine runs it, on behalf of a workspace: plugin switches and
 * credentials are that workspace's, as they will be once the bot is created there.
 */
export function engineBotOf(
  template: BotTemplate,
  workspaceId: string,
  ownerId: string
): EngineBot {
  return {
    id: templateEngineId(template),
    workspaceId,
    ownerId,
    publishedAt: 'draft',
    content: template.bot,
  }
}

export // A template links no other bot, so there is no draft to load.
const templatePorts = perRegistry(() => enginePorts({ loadDraft: async () => undefined }))
