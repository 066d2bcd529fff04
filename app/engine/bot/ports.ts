import type { Block, BotV6 } from '#shared/bot/types'
import type { ChatInput } from '#shared/chat/types'
import type {
  BotCategory,
  BotRunContext,
  BotRunResult,
  InputAnswer,
  LogEntry,
  ParsedAnswer,
  VariableValue,
} from '#plugins/define_plugin'
import type { EngineVariable } from './state.js'

/**
 * What the chat engine needs from the outside world (docs/architecture.md): the engine is
 * pure TypeScript and reaches plugins, storage and other bots only through these ports.
 * app/services/chat/engine_ports.ts implements them for the server; unit tests give
 * their own.
 */

/** A bot as the engine runs it: migrated to v6, with where it lives. */
export interface EngineBot {
  id: string
  workspaceId: string
  /** The owner whose user-scoped credentials the blocks may use. */
  ownerId?: string | null
  /** The published version's time, or 'draft' for previews. */
  publishedAt: string
  content: BotV6
}

export interface BlockRunRequest {
  bot: EngineBot
  block: Block
  groupId: string
  variables: readonly EngineVariable[]
  context: BotRunContext
}

export interface BlockRunOutcome {
  result?: BotRunResult | void
  /** The block's options with {{variables}} substituted (inputs are asked with these). */
  options: Record<string, unknown>
  logs: LogEntry[]
  variablesSet: { id: string; value: VariableValue }[]
  /** The block stopped because the owner has no AI credits left. */
  aiCreditLimitExceeded?: boolean
}

export interface ParseRequest extends BlockRunRequest {
  input: ChatInput
  answer: InputAnswer
}

export interface EnginePorts {
  /** The plugin category of a block type, or undefined when no plugin has that id. */
  categoryOf(type: string): BotCategory | undefined
  /**
   * True for inputs whose question shows content (the plugin's `showsContent`): a startChat
   * message does not answer them. Ports without it treat every input as plain.
   */
  showsContent?(type: string): boolean
  /** Whether a block type shows streamed variable text (its manifest's `showsStreamedText`). */
  showsStreamedText(type: string): boolean
  /** False when the marketplace disabled the block for the bot's workspace plan. */
  isAllowed(type: string, bot: EngineBot): boolean | Promise<boolean>
  runBlock(request: BlockRunRequest): Promise<BlockRunOutcome>
  parseAnswer(request: ParseRequest): Promise<{ parsed: ParsedAnswer; logs: LogEntry[] }>
  /** A bot linked by id (same workspace), migrated, or undefined. */
  loadBot(botId: string, from: EngineBot): Promise<EngineBot | undefined>
  newId(): string
  appUrl: string
  /** Loop iterations a turn may start (LOOP_MAX_ITERATIONS); DEFAULT_LOOP_MAX_ITERATIONS without it. */
  maxLoopIterations?: number
}
