import type { ChatLog, ChatReply, TextBubbleContentFormat } from '#shared/chat/types'
import type { BotRunContext, InputAnswer } from '#plugins/define_plugin'
import type { LanguageWishes } from '#shared/bot/translations'
import type { EngineBot } from './ports.js'
import { type EngineVariableValue, type SessionState } from './state.js'

/** What a turn of the chat engine takes and gives (engine.ts), and its limits. */

/**
 * Block visits per turn before the engine decides the flow loops without input. A loop
 * iteration (BotRunResult.repeat) starts a fresh count: loops are bounded by their own
 * iteration count (maxLoopIterations), not by the size of their list.
 */
export const MAX_BLOCK_VISITS = 500

export const LOOP_ERRORS = {
  tooManyIterations: (max: number) =>
    `The flow was stopped after ${max} loop iterations in one turn (LOOP_MAX_ITERATIONS)`,
  repeatedBlockGone: 'The block repeating this path no longer exists in this bot',
}

export const DEFAULT_RETRY_MESSAGE = 'Invalid message. Please, try again.'

export interface AnswerRecord {
  resultId: string
  blockId: string
  groupId: string
  variableId?: string
  content: string
  attachedFileUrls?: string[]
}

export interface ResultUpdate {
  botId: string
  variables: { id: string; name: string; value: EngineVariableValue }[]
  hasStarted?: boolean
  isCompleted?: boolean
  /** The chat's language, for bots in several languages. */
  language?: string
}

/** An input left without an answer past its reply timeout: its "No reply" exit was taken. */
export interface TimeoutRecord {
  resultId: string
  blockId: string
  groupId: string
}

export interface TurnEffects {
  answers: AnswerRecord[]
  /** Reply timeouts taken this turn, for results and drop-off analytics. */
  timeouts: TimeoutRecord[]
  logs: (ChatLog & { resultId: string })[]
  /** Per result id: its variables now, and what changed in its flags. */
  results: Map<string, ResultUpdate>
  /** Results created this turn (linked bots that do not merge their results). */
  newResults: { id: string; botId: string }[]
}

export interface TurnOutput {
  reply: ChatReply
  state: SessionState
  effects: TurnEffects
}

export interface StartInput {
  bot: EngineBot
  sessionId: string
  resultId?: string
  prefilledVariables?: Record<string, unknown>
  textBubbleContentFormat?: TextBubbleContentFormat
  isPreview?: boolean
  startFrom?: SessionState['startFrom']
  source?: string
  isOnlyRegistering?: boolean
  /** Answers the first input straight away (messaging channels, API clients). */
  message?: InputAnswer
  allowedOrigins?: string[]
  expiryTimeout?: number
  contact?: BotRunContext['contact']
  /** The client can stream answers (StartChatRequest.isStreamEnabled). */
  isStreamEnabled?: boolean
  /** The time of the turn (epoch ms), for reply timeout deadlines; Date.now() without it. */
  now?: number
  /**
   * What the visitor asked for (request or URL, Accept-Language); a prefilled `language`
   * variable is read from the prefilled variables. Bots in one language ignore it.
   */
  languageWishes?: Omit<LanguageWishes, 'variable'>
}

export interface ContinueInput {
  state: SessionState
  sessionId: string
  /** The bot at the head of the session's queue (the caller loads it, usually cached). */
  bot: EngineBot
  message?: InputAnswer
  textBubbleContentFormat?: TextBubbleContentFormat
  contact?: BotRunContext['contact']
  /** The time of the turn (epoch ms), for reply timeout deadlines; Date.now() without it. */
  now?: number
}

export type TimeoutStatus =
  { status: 'taken' } | { status: 'early'; remainingMs: number } | { status: 'stale' }
