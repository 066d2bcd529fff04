import AppError from '#exceptions/app_error'
import type User from '#models/user'
import { toInputAnswer } from '#actions/chat/continue_chat'
import { continueChat } from '#engine/bot/engine'
import { persistTurn, readSession } from '#services/chat/chat_store'
import { templateEngineId } from '#services/bot_templates'
import type { ChatReply, ContinueChatRequest } from '#shared/chat/types'
import { templateOrFail, engineBotOf, templatePorts } from './bot_templates.js'

export class ContinueTemplatePreview {
  async handle(
    user: User,
    templateId: string,
    sessionId: string,
    body: ContinueChatRequest
  ): Promise<ChatReply> {
    const template = await templateOrFail(templateId)
    const session = await readSession(sessionId)
    const head = session?.state.botsQueue[0]
    // Only this template's preview sessions: never a real bot's session.
    if (!session || !session.state.isPreview || head?.botId !== templateEngineId(template)) {
      throw AppError.notFound('Session not found')
    }
    if (session.expiresAt && session.expiresAt.getTime() < Date.now()) {
      throw new AppError('Session expired', {
        status: 404,
        description: 'You need to start a new session.',
      })
    }
    const bot = engineBotOf(template, head.workspaceId, user.id)
    const output = await continueChat(await templatePorts(), {
      state: session.state,
      sessionId,
      bot,
      message: toInputAnswer(body.message),
      textBubbleContentFormat: body.textBubbleContentFormat,
    })
    await persistTurn({
      sessionId,
      state: output.state,
      botId: bot.id,
      workspaceId: head.workspaceId,
      effects: output.effects,
      sessionOnly: true,
    })
    return output.reply
  }
}
