import AppError from '#exceptions/app_error'
import Bot from '#models/bot'
import { isBelowLimit, planFor } from '#services/capabilities'
import { UNLIMITED } from '#shared/plans'
import type { EngineBot } from '#engine/bot/ports'
import { perRegistry } from '#services/plugin_registry'
import { migrateBot } from '#shared/bot/migrate'
import { resolveSettings, resolveTheme, type BotV6 } from '#shared/bot/types'
import { enginePorts } from '#services/chat/engine_ports'
import {
  ChatLimitExceeded,
  chatsThisMonth,
  persistTurn,
  startsChat,
} from '#services/chat/chat_store'
import { countResults, track } from '#services/analytics/analytics'

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
  /** The Accept-Language header: picks the language of a bot in several languages. */
  acceptLanguage?: string | null
}

export const publishedPorts = perRegistry(() => enginePorts())

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

/** The bot in a start answer, under both names clients read (Typebot's and ours). */
export function startedBot(bot: EngineBot) {
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

/** A draft bot as the engine runs it (preview). */
export function draftOf(bot: Bot): EngineBot {
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

async function loadDraft(botId: string, from: EngineBot) {
  const bot = await Bot.find(botId)
  if (!bot || bot.workspaceId !== from.workspaceId) return undefined
  return draftOf(bot)
}

export const draftPorts = perRegistry(() => enginePorts({ loadDraft }))
