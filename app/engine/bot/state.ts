import type { ChatInput, TextBubbleContentFormat } from '#shared/chat/types'
import type { VariableValue as BotVariableValue } from '#shared/bot/types'
import type { TranscriptEntry } from '#plugins/define_plugin'

/**
 * The chat session state: everything the engine needs to take
 * the next turn, stored as one JSON document per session. Version 3; older shapes are
 * upgraded on read by upgradeState.
 */

export type EngineVariableValue = BotVariableValue | number | boolean | undefined

export interface EngineVariable {
  id: string
  name: string
  value?: EngineVariableValue
  isSessionVariable?: boolean
}

/** Where the walk goes on: an edge to follow, or a block position in a group. */
export type ResumePoint = { edgeId: string } | { groupId: string; blockIndex: number }

/** One bot of the queue: the running bot first, the bots that linked to it after. */
export interface QueuedBot {
  botId: string
  /** The published version's time (or 'draft' in preview), for the bot cache. */
  publishedAt: string
  workspaceId: string
  resultId?: string
  /** Answers of a linked bot go to the parent's result. */
  isMergingWithParent?: boolean
  variables: EngineVariable[]
  /** Where the parent goes on when this linked bot ends. */
  resumeParentAt?: ResumePoint | null
  /** Jump return marks, last first out. */
  returnMarks: ResumePoint[]
  /** Blocks repeating a path (loops), innermost last: run again when the path ends. */
  repeats?: RepeatFrame[]
}

/** A block whose repeated path is running (BotRunResult.repeat), with its own state. */
export interface RepeatFrame {
  blockId: string
  groupId: string
  state?: unknown
}

export interface AwaitedBlock {
  blockId: string
  groupId: string
  /** What is awaited: an answer to an input, or the end of a client-side action. */
  kind: 'input' | 'pause'
  /** The input as it was shown (items filtered), for parsing the answer. */
  input?: ChatInput
  /** Pause: the value sent back by the client goes here. */
  saveReplyInVariableId?: string
  /** Pause on a webhook block: the call has not come yet. */
  awaitsWebhook?: boolean
  /**
   * Pause on a streaming block (a `stream` client-side action): the client streams the
   * block's answer from streamMessage, then sends the full text back.
   */
  streams?: boolean
  /** A streamMessage call took the stream: another one is refused (it would bill again). */
  streamClaimed?: boolean
  /**
   * An input with a reply timeout: from `deadline` (epoch ms, when it was asked plus the
   * block's seconds) on, timeoutChat may take the block's "No reply" exit.
   */
  timeout?: { seconds: number; deadline: number }
}

export interface SessionState {
  version: '3'
  botsQueue: QueuedBot[]
  awaiting?: AwaitedBlock
  /** isOnlyRegistering: the walk from the start has not begun yet. */
  notStarted?: boolean
  /** startFrom in preview, used when a registered session begins. */
  startFrom?: { type: 'group'; groupId: string } | { type: 'event'; eventId: string }
  allowedOrigins?: string[]
  /** Milliseconds of inactivity after which the session is gone (at least 1). */
  expiryTimeout?: number
  textBubbleContentFormat: TextBubbleContentFormat
  isPreview: boolean
  source: string
  /**
   * The client asked for streamed replies on startChat: blocks that can stream to the next
   * text bubble pause with a `stream` action instead of answering. Older states: false.
   */
  isStreamEnabled?: boolean
  /** Answers given so far in this session, for the progress bar. */
  answeredCount: number
  /** The last messages of the conversation, for Transcript and AI blocks. */
  transcript: TranscriptEntry[]
  /** Body of the awaited webhook call, once it came. */
  webhookPayload?: unknown
  isCompleted?: boolean
  /**
   * The language picked at the start for a bot in several languages (a `language` variable
   * holding another of the bot's languages wins from then on). Absent: one language.
   */
  language?: string
  /** Results that got their first answer (a started chat is counted once). */
  startedResultIds?: string[]
}

/** Transcript entries kept in the state: enough for AI context, bounded in size. */
export const TRANSCRIPT_LIMIT = 200

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads a stored state of any version. Version 2 states kept the queue as
 * `typebotsQueue` with a `typebot` object per entry and the awaited block as
 * `currentBlockId`; they are mapped onto version 3.
 */
export function upgradeState(raw: unknown): SessionState {
  if (!isRecord(raw)) throw new Error('Invalid session state')
  if (raw.version === '3') return raw as SessionState
  const queue: unknown[] = Array.isArray(raw.typebotsQueue)
    ? raw.typebotsQueue
    : Array.isArray(raw.botsQueue)
      ? raw.botsQueue
      : []
  const botsQueue: QueuedBot[] = queue.filter(isRecord).map((entry) => {
    const bot = isRecord(entry.typebot) ? entry.typebot : entry
    return {
      botId: String(bot.id ?? entry.botId ?? ''),
      publishedAt: String(bot.publishedAt ?? entry.publishedAt ?? ''),
      workspaceId: String(bot.workspaceId ?? entry.workspaceId ?? ''),
      resultId: entry.resultId ?? undefined,
      isMergingWithParent: Boolean(entry.isMergingWithParent),
      variables: Array.isArray(bot.variables) ? bot.variables : [],
      resumeParentAt: entry.edgeIdToTriggerWhenDone
        ? { edgeId: String(entry.edgeIdToTriggerWhenDone) }
        : null,
      returnMarks: [],
    }
  })
  const currentBlockId = typeof raw.currentBlockId === 'string' ? raw.currentBlockId : undefined
  return {
    version: '3',
    botsQueue,
    awaiting: currentBlockId ? { blockId: currentBlockId, groupId: '', kind: 'input' } : undefined,
    allowedOrigins: Array.isArray(raw.allowedOrigins) ? raw.allowedOrigins : undefined,
    expiryTimeout: typeof raw.expiryTimeout === 'number' ? raw.expiryTimeout : undefined,
    textBubbleContentFormat: raw.textBubbleContentFormat === 'markdown' ? 'markdown' : 'richText',
    isPreview: Boolean(raw.previewMetadata ?? raw.isPreview),
    source: typeof raw.source === 'string' ? raw.source : 'web',
    answeredCount: 0,
    transcript: [],
  }
}
