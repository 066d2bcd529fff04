import AppError from '#exceptions/app_error'
import Bot from '#models/bot'
import type User from '#models/user'
import { newId } from '#services/ids'
import { findBotFor } from '#actions/bots/bot_access'
import { startChat } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import type { SessionState } from '#engine/bot/state'
import { type BotV6 } from '#shared/bot/types'
import type { PreviewStartChatRequest, StartChatResponse } from '#shared/chat/types'
import { persistTurn, readSession } from '#services/chat/chat_store'
import { BotParseError, importBot } from '#shared/bot/parse'
import { startedBot, draftOf, draftPorts } from '#services/chat/chat_runtime'

/**
 * The bot a preview runs when the client sends its own (an unsaved state): read like an
 * imported file, run under the stored bot's id and workspace, never saved.
 */
function overrideOf(bot: Bot, raw: unknown): EngineBot {
  let content: BotV6
  try {
    content = importBot(raw)
  } catch (error) {
    if (error instanceof BotParseError)
      throw new AppError(error.message, { status: 422, field: 'bot' })
    throw error
  }
  return {
    id: bot.id,
    workspaceId: bot.workspaceId,
    ownerId: bot.createdBy,
    publishedAt: 'draft',
    content: { ...content, id: bot.id } as BotV6,
  }
}

export class StartPreviewChat {
  async handle(
    user: User,
    botId: string,
    body: PreviewStartChatRequest
  ): Promise<StartChatResponse> {
    const { bot } = await findBotFor(user, botId, 'read')
    const engineBot = body.bot === undefined ? draftOf(bot) : overrideOf(bot, body.bot)
    const startFrom = body.startFrom
    if (
      startFrom?.type === 'group' &&
      !engineBot.content.groups.some((g) => g.id === startFrom.groupId)
    ) {
      throw new AppError('Group not found', { status: 404, field: 'startFrom' })
    }
    const sessionId = body.sessionId ?? newId()
    if (body.sessionId && (await readSession(body.sessionId))) {
      throw new AppError('This session id is already in use', { status: 409, field: 'sessionId' })
    }
    const output = await startChat(await draftPorts(), {
      bot: engineBot,
      sessionId,
      isPreview: true,
      startFrom: body.startFrom as SessionState['startFrom'],
      prefilledVariables: body.prefilledVariables,
      textBubbleContentFormat: body.textBubbleContentFormat,
      isOnlyRegistering: body.isOnlyRegistering,
      message: body.message ? { text: body.message } : undefined,
      isStreamEnabled: body.isStreamEnabled,
      languageWishes: { requested: body.language },
    })
    await persistTurn({
      sessionId,
      state: output.state,
      botId: bot.id,
      workspaceId: bot.workspaceId,
      effects: output.effects,
      isNewSession: true,
      sessionOnly: true,
    })
    return { sessionId, ...startedBot(engineBot), ...output.reply }
  }
}
