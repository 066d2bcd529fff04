import AppError from '#exceptions/app_error'
import Bot from '#models/bot'
import type User from '#models/user'
import { newId } from '#services/ids'
import { isBelowLimit, planFor } from '#services/capabilities'
import { UNLIMITED } from '#shared/plans'
import { findBotFor } from '#actions/bots/bot_access'
import { continueChat, startChat, type TurnOutput } from '#engine/bot/engine'
import type { EngineBot } from '#engine/bot/ports'
import { perRegistry } from '#services/plugin_registry'
import type { SessionState } from '#engine/bot/state'
import { migrateBot } from '#shared/bot/migrate'
import { resolveSettings, resolveTheme, type BotV6 } from '#shared/bot/types'
import type {
  ChatReply,
  ContinueChatRequest,
  PreviewStartChatRequest,
  StartChatRequest,
  StartChatResponse,
} from '#shared/chat/types'
import type { InputAnswer } from '#plugins/define_plugin'
import { enginePorts, type ServerEnginePorts } from '#services/chat/engine_ports'
import { publishedBotById, publishedBotByPublicId } from '#services/chat/bot_cache'
import {
  ChatLimitExceeded,
  chatsThisMonth,
  persistTurn,
  startsChat,
  readSession,
  updateSession,
  type NewResult,
} from '#services/chat/chat_store'
import db from '@adonisjs/lucid/services/db'
import { capabilityTurn } from '#services/capability_stamp'
import { countResults, track } from '#services/analytics/analytics'
import { BotParseError, importBot } from '#shared/bot/parse'

/**
 * The chat use cases behind the public chat API: start a chat on a
 * published bot, continue a session, preview a draft. They take explicit arguments (no
 * HTTP context) so that messaging channels and workers can call them too.
 */

export const CHAT_LIMIT_MESSAGE =
  'This bot has reached its chat limit for the month. Please come back later.'

/** Who is chatting, from the request (never required). */
export interface VisitorInfo {
  origin?: string | null
  deviceDetails?: Record<string, unknown> | null
  location?: Record<string, unknown> | null
}

const publishedPorts = perRegistry(() => enginePorts())

/** The engine ports of published bots (messaging channels run them too). */
export const publishedEnginePorts = publishedPorts

export function assertOrigin(allowed: string[] | undefined, origin: string | null | undefined) {
  if (!allowed || allowed.length === 0 || !origin) return
  const normalized = origin.replace(/\/$/, '')
  if (!allowed.some((candidate) => candidate.replace(/\/$/, '') === normalized)) {
    throw new AppError('Origin not allowed', {
      status: 403,
      description: 'This bot does not accept chats from this website.',
    })
  }
}

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

/** The bot in a start answer, under both names clients read (Typebot's and ours). */
function startedBot(bot: EngineBot) {
  const info = botInfo(bot)
  return { typebot: info, bot: info }
}

function botInfo(bot: EngineBot) {
  return {
    id: bot.id,
    theme: resolveTheme(bot.content.theme),
    settings: resolveSettings(bot.content.settings),
    publishedAt: bot.publishedAt === 'draft' ? null : bot.publishedAt,
  }
}

/**
 * The workspace's monthly chat limit and whether its chats of the month used it. Read at
 * most every few seconds per workspace: a start costs no query in the steady state. Once
 * an answer is older than that, the start that finds it still uses it and reads the limit
 * again in the background, so no start waits. `reached` only turns new chats away early;
 * the limit itself holds where chats are counted (persistTurn), exactly.
 */
export interface ChatLimit {
  reached: boolean
  /** The plan's chats per month (UNLIMITED: -1). */
  limit: number
}
const LIMIT_CACHE_MS = 5000
const limitCache = new Map<string, ChatLimit & { at: number }>()

/** Reads in progress by workspace: starts arriving meanwhile share them. */
const limitReads = new Map<string, Promise<ChatLimit>>()
/** Bumped by forgetChatLimits: a read started before it is not cached. */
let limitGeneration = 0

export function chatLimitOf(bot: EngineBot): Promise<ChatLimit> | ChatLimit {
  const workspaceId = bot.workspaceId
  const cached = limitCache.get(workspaceId)
  if (cached && Date.now() - cached.at < LIMIT_CACHE_MS) return cached
  let pending = limitReads.get(workspaceId)
  if (cached) {
    if (!pending) {
      const read = readChatLimit(bot).finally(() => limitReads.delete(workspaceId))
      limitReads.set(workspaceId, read)
      // A failed read keeps the last answer; the next start tries again.
      read.catch(() => {})
    }
    return cached
  }
  if (!pending) {
    pending = readChatLimit(bot).finally(() => limitReads.delete(workspaceId))
    limitReads.set(workspaceId, pending)
  }
  return pending
}

async function readChatLimit(bot: EngineBot): Promise<ChatLimit> {
  const startedIn = limitGeneration
  // The workspace's plan, cached per process (planFor): no read of its own in a warm turn.
  const { plan } = await planFor(null, bot.workspaceId)
  const used = await chatsThisMonth(bot.workspaceId)
  const limit = plan.limits.conversations
  const reached = !isBelowLimit(limit, used)
  if (startedIn === limitGeneration) {
    if (reached) noteLimitReached(bot, limit)
    limitCache.set(bot.workspaceId, { reached, limit, at: Date.now() })
  }
  return { reached, limit }
}

/** "Limit reached" when this process first sees the workspace full, not for every chat refused. */
function noteLimitReached(bot: EngineBot, limit: number) {
  if (limitCache.get(bot.workspaceId)?.reached) return
  track({
    name: 'Limit reached',
    workspaceId: bot.workspaceId,
    properties: { limit: 'conversations', value: limit, botId: bot.id },
  })
}

/** A refused count: new chats of the workspace are turned away at start from now on. */
function markChatLimitReached(bot: EngineBot, limit: number) {
  noteLimitReached(bot, limit)
  limitCache.set(bot.workspaceId, { reached: true, limit, at: Date.now() })
}

/** Tests and plan changes: read the limit again on the next start. */
export function forgetChatLimits() {
  limitGeneration++
  limitCache.clear()
  limitReads.clear()
}

/**
 * Writes a published bot's turn under its chat limit: false when the turn would start a
 * chat past it (nothing was written; the visitor gets chatLimitExceededError).
 */
export async function persistPublishedTurn(
  bot: EngineBot,
  input: Omit<Parameters<typeof persistTurn>[0], 'chatLimit' | 'workspaceId' | 'botId'>
): Promise<boolean> {
  const limit = startsChat(input.effects) ? (await chatLimitOf(bot)).limit : UNLIMITED
  try {
    await persistTurn({ ...input, botId: bot.id, workspaceId: bot.workspaceId, chatLimit: limit })
    const results = (input.newResult ? 1 : 0) + input.effects.newResults.length
    if (results > 0 && !input.sessionOnly) countResults(bot.workspaceId, results)
    return true
  } catch (error) {
    if (!(error instanceof ChatLimitExceeded)) throw error
    markChatLimitReached(bot, limit)
    return false
  }
}

/** Variables of a remembered result, as prefilled values by name. */
async function rememberedVariables(resultId: string, botId: string) {
  const row = await db
    .from('results')
    .where({ id: resultId, bot_id: botId })
    .select('variables')
    .first()
  if (!row) return undefined
  const variables = JSON.parse(row.variables) as { name: string; value: unknown }[]
  return Object.fromEntries(variables.map((v) => [v.name, v.value]))
}

export class StartChat {
  async handle(
    publicId: string,
    body: StartChatRequest,
    visitor: VisitorInfo = {}
  ): Promise<StartChatResponse> {
    const entry = await publishedBotByPublicId(publicId)
    if (!entry || entry.isArchived) throw AppError.notFound('Bot not found')
    const settings = resolveSettings(entry.bot.content.settings)
    assertOrigin(settings.security?.allowedOrigins, visitor.origin)
    // The client's own geo wins over what a proxy's header says.
    const geo = (body.geo && Object.keys(body.geo).length > 0 ? body.geo : visitor.location) ?? null
    if (entry.isClosed) {
      throw new AppError('This bot is closed', {
        status: 403,
        description: 'It no longer accepts new answers.',
      })
    }
    if ((await chatLimitOf(entry.bot)).reached) {
      return {
        sessionId: '',
        ...startedBot(entry.bot),
        messages: [],
        chatLimitExceededError: CHAT_LIMIT_MESSAGE,
      }
    }

    // rememberUser: the visitor's earlier result goes on, with its variables.
    let resultId: string | undefined
    let prefilled = settings.general?.isInputPrefillEnabled ? body.prefilledVariables : undefined
    if (body.resultId && settings.general?.rememberUser?.isEnabled) {
      const remembered = await rememberedVariables(body.resultId, entry.bot.id)
      if (remembered) {
        resultId = body.resultId
        prefilled = { ...remembered, ...prefilled }
      }
    }
    // Hidden variables set by the embed's prefilledVariables are allowed even without
    // input prefill: it only decides whether inputs show the values.
    if (!settings.general?.isInputPrefillEnabled && body.prefilledVariables) {
      prefilled = { ...prefilled, ...body.prefilledVariables }
    }
    const isNewResult = !resultId
    resultId ??= newId()
    const sessionId = newId()
    // One capability turn: its blocks' plan checks share one read of the stamp.
    const ports = (await publishedPorts()).forTurn(capabilityTurn())
    const output = await startChat(ports, {
      bot: entry.bot,
      sessionId,
      resultId,
      prefilledVariables: prefilled,
      textBubbleContentFormat: body.textBubbleContentFormat,
      isOnlyRegistering: body.isOnlyRegistering,
      message: body.message ? { text: body.message } : undefined,
      allowedOrigins: settings.security?.allowedOrigins?.length
        ? settings.security.allowedOrigins
        : undefined,
      isStreamEnabled: body.isStreamEnabled,
      source: body.source,
    })
    let newResult: NewResult | undefined
    if (isNewResult) {
      const update = output.effects.results.get(resultId)
      newResult = {
        id: resultId,
        botId: entry.bot.id,
        sessionId,
        variables: update?.variables ?? [],
        isCompleted: update?.isCompleted,
        deviceDetails: visitor.deviceDetails,
        location: geo as Record<string, unknown> | null,
      }
      // Inserted as it is now: no second write unless the chat also started (counted).
      if (update && !update.hasStarted) output.effects.results.delete(resultId)
    }
    const written = await persistPublishedTurn(entry.bot, {
      sessionId,
      state: output.state,
      effects: output.effects,
      isNewSession: true,
      newResult,
    })
    if (!written) {
      return {
        sessionId: '',
        ...startedBot(entry.bot),
        messages: [],
        chatLimitExceededError: CHAT_LIMIT_MESSAGE,
      }
    }
    return { sessionId, resultId, ...startedBot(entry.bot), geo, ...output.reply }
  }
}

/** A draft bot as the engine runs it (preview). */
function draftOf(bot: Bot): EngineBot {
  const content = migrateBot({
    version: bot.version,
    id: bot.id,
    name: bot.name,
    groups: bot.groups,
    events: bot.events,
    edges: bot.edges,
    variables: bot.variables,
    theme: bot.theme,
    settings: bot.settings,
  }) as BotV6
  return {
    id: bot.id,
    workspaceId: bot.workspaceId,
    ownerId: bot.createdBy,
    publishedAt: 'draft',
    content,
  }
}

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

async function loadDraft(botId: string, from: EngineBot) {
  const bot = await Bot.find(botId)
  if (!bot || bot.workspaceId !== from.workspaceId) return undefined
  return draftOf(bot)
}

const draftPorts = perRegistry(() => enginePorts({ loadDraft }))

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

/**
 * A call to a waiting webhook block's URL: the body is kept in the session of the
 * result, and the next continueChat resumes the flow with it.
 */
export class ReceiveBlockWebhook {
  async handle(botId: string, blockId: string, resultId: string, payload: unknown) {
    const result = await db
      .from('results')
      .where({ id: resultId, bot_id: botId })
      .select('last_chat_session_id')
      .first()
    const sessionId = result?.last_chat_session_id
    const session = sessionId ? await readSession(sessionId) : null
    const awaiting = session?.state.awaiting
    if (!session || !awaiting?.awaitsWebhook || awaiting.blockId !== blockId) {
      throw new AppError('No chat is waiting for this webhook', { status: 404 })
    }
    session.state.webhookPayload = payload ?? {}
    await updateSession(session.id, session.state)
    return { message: 'Webhook received' }
  }
}
