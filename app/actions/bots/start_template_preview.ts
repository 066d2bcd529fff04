import type User from '#models/user'
import type Workspace from '#models/workspace'
import { startChat } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import { persistTurn } from '#services/chat/chat_store'
import { newId } from '#services/ids'
import { resolveSettings, resolveTheme } from '#shared/bot/types'
import type { StartChatRequest, StartChatResponse } from '#shared/chat/types'
import { templateOrFail, engineBotOf, templatePorts } from './bot_templates.js'

/**
 * The template gallery's use cases: chat with a template before using it (a preview that
 * creates no bot and saves no result), and create a bot from it.
 */

/** A template preview is a quick look: its session is kept for an hour, not a week. */
export const TEMPLATE_PREVIEW_EXPIRY_MS = 3600 * 1000

function botInfo(bot: EngineBot) {
  return {
    id: bot.id,
    theme: resolveTheme(bot.content.theme),
    settings: resolveSettings(bot.content.settings),
    publishedAt: null,
  }
}

export class StartTemplatePreview {
  async handle(
    user: User,
    workspace: Workspace,
    templateId: string,
    body: Pick<StartChatRequest, 'message' | 'textBubbleContentFormat' | 'prefilledVariables'>
  ): Promise<StartChatResponse> {
    const template = await templateOrFail(templateId)
    const bot = engineBotOf(template, workspace.id, user.id)
    const sessionId = newId()
    const output = await startChat(await templatePorts(), {
      bot,
      sessionId,
      isPreview: true,
      expiryTimeout: TEMPLATE_PREVIEW_EXPIRY_MS,
      prefilledVariables: body.prefilledVariables,
      textBubbleContentFormat: body.textBubbleContentFormat,
      message: body.message ? { text: body.message } : undefined,
    })
    await persistTurn({
      sessionId,
      state: output.state,
      botId: bot.id,
      workspaceId: workspace.id,
      effects: output.effects,
      isNewSession: true,
      sessionOnly: true,
    })
    return { sessionId, typebot: botInfo(bot), bot: botInfo(bot), ...output.reply }
  }
}
