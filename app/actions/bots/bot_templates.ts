import AppError from '#exceptions/app_error'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/bots'
import { toInputAnswer } from '#actions/chat/chat'
import { continueChat, startChat } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import { perRegistry } from '#services/plugin_registry'
import { enginePorts } from '#services/chat/engine_ports'
import { persistTurn, readSession } from '#services/chat/chat_store'
import { findTemplate, templateEngineId, type BotTemplate } from '#services/bot_templates'
import { newId } from '#services/ids'
import { importBot } from '#shared/bot/parse'
import { resolveSettings, resolveTheme } from '#shared/bot/types'
import type {
  ChatReply,
  ContinueChatRequest,
  StartChatRequest,
  StartChatResponse,
} from '#shared/chat/types'

/**
 * The template gallery's use cases: chat with a template before using it (a preview that
 * creates no bot and saves no result), and create a bot from it.
 */

/** A template preview is a quick look: its session is kept for an hour, not a week. */
export const TEMPLATE_PREVIEW_EXPIRY_MS = 3600 * 1000

async function templateOrFail(templateId: string) {
  const template = await findTemplate(templateId)
  if (!template) throw AppError.notFound('Template not found')
  return template
}

/**
 * The template's bot as the engine runs it, on behalf of a workspace: plugin switches and
 * credentials are that workspace's, as they will be once the bot is created there.
 */
function engineBotOf(template: BotTemplate, workspaceId: string, ownerId: string): EngineBot {
  return {
    id: templateEngineId(template),
    workspaceId,
    ownerId,
    publishedAt: 'draft',
    content: template.bot,
  }
}

// A template links no other bot, so there is no draft to load.
const templatePorts = perRegistry(() => enginePorts({ loadDraft: async () => undefined }))

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
