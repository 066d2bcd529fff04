import AppError from '#exceptions/app_error'
import Bot from '#models/bot'
import { continueChat, type TurnOutput } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import type { ChatReply, ContinueChatRequest } from '#shared/chat/types'
import type { InputAnswer } from '#plugins/define_plugin'
import { type ServerEnginePorts } from '#services/chat/engine_ports'
import { publishedBotById } from '#services/chat/bot_cache'
import { persistTurn, readSession } from '#services/chat/chat_store'
import { capabilityTurn } from '#services/capability_stamp'
import {
  CHAT_LIMIT_MESSAGE,
  VisitorInfo,
  publishedPorts,
  assertOrigin,
  persistPublishedTurn,
  draftOf,
  draftPorts,
} from '#services/chat/chat_runtime'

const MAX_ATTACHED_FILES = 100
const MAX_FILE_URL_CHARS = 4096

/** `attachedFileUrls`, when sent, is a list of URLs: anything else is refused, not ignored. */
function attachedFileUrlsOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (
    !Array.isArray(value) ||
    value.length > MAX_ATTACHED_FILES ||
    !value.every((url) => typeof url === 'string' && url.length <= MAX_FILE_URL_CHARS)
  ) {
    throw new AppError('Invalid message', {
      status: 400,
      description: `attachedFileUrls must be a list of at most ${MAX_ATTACHED_FILES} URLs.`,
      field: 'message.attachedFileUrls',
    })
  }
  return value
}

/** The continueChat message as an answer (a text, or a text or audio object). */
export function toInputAnswer(message: unknown): InputAnswer | undefined {
  if (message === undefined || message === null) return undefined
  if (typeof message === 'string') return { text: message }
  if (typeof message === 'object') {
    const record = message as Record<string, unknown>
    const files = attachedFileUrlsOf(record.attachedFileUrls)
    if (record.type === 'text' && typeof record.text === 'string') {
      return { text: record.text, attachedFileUrls: files?.length ? files : undefined }
    }
    if (record.type === 'audio' && typeof record.url === 'string') {
      return { text: record.url, attachedFileUrls: [record.url] }
    }
  }
  throw new AppError('Invalid message', {
    status: 400,
    description: 'A message is a text, or {type: "text", text} or {type: "audio", url}.',
    field: 'message',
  })
}

/**
 * A live session of the chat API with the bot at the head of its queue (the draft in
 * preview) and the engine ports to run it: the checks every session call makes (exists,
 * not expired, origin allowed).
 */
export async function openSession(sessionId: string, visitor: VisitorInfo = {}) {
  const session = await readSession(sessionId)
  if (!session) throw AppError.notFound('Session not found')
  if (session.expiresAt && session.expiresAt.getTime() < Date.now()) {
    throw new AppError('Session expired', {
      status: 404,
      description: 'You need to start a new session.',
    })
  }
  const state = session.state
  assertOrigin(state.allowedOrigins, visitor.origin)
  const head = state.botsQueue[0]
  if (!head) throw AppError.notFound('Session not found')

  let bot: EngineBot | undefined
  let ports: ServerEnginePorts
  if (state.isPreview) {
    const draft = await Bot.find(head.botId)
    bot = draft ? draftOf(draft) : undefined
    ports = await draftPorts()
  } else {
    const entry = await publishedBotById(head.botId)
    bot = entry?.bot
    ports = await publishedPorts()
  }
  if (!bot) throw AppError.notFound('Bot not found')
  return { state, bot, ports, capabilityStamp: session.capabilityStamp }
}

export class ContinueChat {
  async handle(
    sessionId: string,
    body: ContinueChatRequest,
    visitor: VisitorInfo = {}
  ): Promise<ChatReply> {
    const { state, bot, ports, capabilityStamp } = await openSession(sessionId, visitor)
    // The blocks' plan checks use the stamp read with the session: no read of their own.
    const output: TurnOutput = await continueChat(ports.forTurn(capabilityTurn(capabilityStamp)), {
      state,
      sessionId,
      bot,
      message: toInputAnswer(body.message),
      textBubbleContentFormat: body.textBubbleContentFormat,
    })
    if (state.isPreview) {
      await persistTurn({
        sessionId,
        state: output.state,
        botId: bot.id,
        workspaceId: bot.workspaceId,
        effects: output.effects,
        sessionOnly: true,
      })
      return output.reply
    }
    const written = await persistPublishedTurn(bot, {
      sessionId,
      state: output.state,
      effects: output.effects,
    })
    // The session stays where it was: the answer can be sent again once there is room.
    if (!written) return { messages: [], chatLimitExceededError: CHAT_LIMIT_MESSAGE }
    return output.reply
  }
}
