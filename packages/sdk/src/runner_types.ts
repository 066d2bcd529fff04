import type { Fields, InferFields } from './fields.js'
import type { PluginDeclaration, PluginSurface } from './define_plugin.js'

/**
 * The runner side of the plugin contract (define_plugin.ts): what a plugin's runner receives
 * and returns, and the few helpers runners share. Types only besides those helpers, and
 * browser-safe like the manifest side: nothing here imports Node or server modules.
 */

// ---------------------------------------------------------------------------
// Runner side (types only; implementations live in the engines and services)
// ---------------------------------------------------------------------------

export type LogStatus = 'success' | 'info' | 'error'

export interface LogEntry {
  status: LogStatus
  description: string
  details?: unknown
}

export interface RunnerLogger {
  success(description: string, details?: unknown): void
  info(description: string, details?: unknown): void
  error(description: string, details?: unknown): void
}

export type VariableValue = string | string[] | number | boolean | null | undefined

export interface RunnerVariables {
  /** The value of a variable by id (or by name when no id matches). */
  get(idOrName: string): VariableValue
  set(id: string | undefined, value: VariableValue): void
  list(): { id: string; name: string; value: VariableValue }[]
}

export interface HttpRequestOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array | URLSearchParams
  /** Defaults to the client's timeout (10 s). */
  timeoutMs?: number
  signal?: AbortSignal
}

/** The guarded HTTP client (app/plugins/guarded_http.ts): no internal hosts, timeouts. */
export interface HttpClient {
  request(url: string | URL, options?: HttpRequestOptions): Promise<Response>
}

export interface RunnerStorage {
  /**
   * Stores the bytes and returns their URL. Public (the default): anyone with the URL reads
   * it. Private: only signed-in members of the workspace, or signed links made for them
   * (results page, CSV export); see docs/security.md, "Storage".
   */
  put(
    bytes: Uint8Array,
    options: { type: string; name?: string; visibility?: 'public' | 'private' }
  ): Promise<string>
  /**
   * The bytes and name of a file this app stored for the block's workspace (a URL `put`
   * returned, or a visitor's upload), public or private; null when the URL is not one of
   * the app's stored files. A file of another workspace throws.
   */
  read(url: string): Promise<{ bytes: Uint8Array; name: string } | null>
}

/**
 * The isolated-vm pool (app/sandbox); declared here so runners can be typed. Code runs under
 * the block's own workspace (its cap and queue, docs/sandbox.md): a runner cannot pick another.
 */
export interface RunnerSandbox {
  run(code: string, variables: Record<string, unknown>): Promise<unknown>
}

/** A block as a bot runner sees it: its items are those shown (display conditions applied). */
export interface RunnerBlock {
  id: string
  type: string
  groupId: string
  outgoingEdgeId?: string
  items?: { id: string; outgoingEdgeId?: string; content?: unknown; [key: string]: unknown }[]
}

export interface TranscriptEntry {
  role: 'bot' | 'user'
  type: string
  text: string
}

/** What a bot block's runner knows of the chat it runs in (absent for workflow nodes). */
export interface BotRunContext {
  block: RunnerBlock
  botId: string
  sessionId: string
  resultId?: string
  isPreview: boolean
  /** Where the visitor chats: 'web', 'api', 'whatsapp', 'telegram'. */
  environment: string
  textBubbleContentFormat: 'richText' | 'markdown'
  /** The conversation so far, oldest first. */
  transcript(): TranscriptEntry[]
  /** Evaluates a condition ({comparisons, logicalOperator}) against the current variables. */
  evaluateCondition(condition: unknown): boolean
  /** The visitor's contact details on messaging channels. */
  contact?: { name?: string; phoneNumber?: string }
  /** Links in messages and webhooks point here (the app's public URL). */
  appUrl: string
  /**
   * Set when a paused block is run again because what it waited for came (the body of
   * a webhook call): the runner maps it to variables and does not pause again.
   */
  resumeWith?: unknown
  /**
   * True when the visitor's client asked for streamed replies (`isStreamEnabled`) and the
   * block that runs next is a text bubble showing this variable. A streaming runner then
   * returns `streamReply(variableId)` instead of calling the model: the client streams the
   * answer from the plugin's `streams` export, then sends the full text back.
   */
  canStreamTo?(variableId: string | undefined): boolean
  /**
   * Set when the block runs again because the path it repeats (`BotRunResult.repeat`)
   * ended, or led back to it: `state` is what it returned with that repeat. Kept in the
   * session, so a repeated path may ask the visitor and go on in a later turn.
   */
  repeated?: { state: unknown }
}

/** Token counts of one AI provider call, for the owner's AI credits. */
export interface AiUsage {
  /** The model the provider ran; the default price row is used when it is absent. */
  model?: string
  inputTokens: number
  outputTokens: number
}

/**
 * AI credit accounting of the bot's or workflow's owner. Runners that call a model call
 * `ensureCredits()` first (it throws when the owner has none left, and the chat reply then
 * carries `aiCreditLimitExceededError`) and `recordUsage()` after each provider call.
 */
export interface RunnerAi {
  ensureCredits(): Promise<void>
  recordUsage(usage: AiUsage): Promise<void>
}

export interface RunnerContext<
  Options = Record<string, unknown>,
  Credentials = Record<string, unknown>,
> {
  /** Where the runner runs: a bot's chat (`bot` is set) or a workflow run. */
  surface: PluginSurface
  /**
   * The workspace the bot or workflow belongs to (where its own files live, e.g. a SQLite
   * database). Absent only in contexts made outside the engines.
   */
  workspaceId?: string
  /** Set when the runner runs a bot block. */
  bot?: BotRunContext
  /** Options with {{variables}} already substituted. */
  options: Options
  /** Decrypted credentials, when the block uses some. */
  credentials: Credentials
  variables: RunnerVariables
  logger: RunnerLogger
  http: HttpClient
  storage: RunnerStorage
  sandbox?: RunnerSandbox
  ai: RunnerAi
  signal: AbortSignal
  /**
   * Set when the runner runs a workflow node: the same for every attempt of this node in
   * this run (a retry, or the run going on after its worker died), another one for the next
   * visit of the node. `http` already sends it as the Idempotency-Key header; a plugin that
   * calls out by other means (an SDK with its own idempotency option) passes it there.
   */
  idempotencyKey?: string
}

export interface ChatMessage {
  id?: string
  type: string
  content: unknown
}

export interface BotRunResult {
  /** Leave the block through this edge instead of its own (Condition, AB test, ...). */
  outgoingEdgeId?: string
  /**
   * The path ends at this block: neither its own edge nor the next blocks of its group run
   * (a Condition whose matching branch is not connected). A linked bot returns to its parent.
   */
  endPath?: boolean
  messages?: ChatMessage[]
  /**
   * Input blocks: what the visitor is asked (options resolved, items filtered). When an
   * input runner returns nothing, the engine asks with the block's substituted options.
   */
  input?: {
    options?: Record<string, unknown>
    items?: RunnerBlock['items']
    runtimeOptions?: Record<string, unknown>
  }
  /** Input blocks: skip the question and go on (e.g. dynamic choice with no item). */
  skipInput?: boolean
  clientSideActions?: unknown[]
  variablesToSet?: { id: string; value: VariableValue }[]
  logs?: LogEntry[]
  /** Jump: continue at this group (and block); a later Return comes back after the jump. */
  jump?: { groupId: string; blockId?: string }
  /** Return: go back to where the last Jump left. */
  returnFromJump?: boolean
  /** Bot link: run another bot (by id), from a group, then come back here. */
  link?: { botId: string; groupId?: string; mergeResults?: boolean }
  /**
   * Stop the turn here: the client runs the last client-side action and calls
   * continueChat (Wait with shouldPause, Code or Set variable on the client, webhook).
   * The engine goes on through the block's outgoing edge on the next call.
   */
  pause?: boolean
  /** With pause: the value sent back by the client is saved in this variable. */
  saveReplyInVariableId?: string
  /**
   * Run the path behind this edge, then this block again (with `bot.repeated.state`) when
   * that path ends or leads back to this block: one iteration of a loop. Each one counts
   * against the turn's iteration bound (docs/plugins.md, "Loops").
   */
  repeat?: { outgoingEdgeId: string; state?: unknown }
}

/** A visitor's answer to an input block. */
export interface InputAnswer {
  text: string
  attachedFileUrls?: string[]
}

export type ParsedAnswer =
  | {
      status: 'success'
      /** What is recorded as the answer and shown as the visitor's message. */
      value: string
      /** What the answer variable receives (defaults to value); lists for multiple choice. */
      variableValue?: VariableValue
      /** Leave through this edge (the chosen button's) instead of the block's. */
      outgoingEdgeId?: string
      attachedFileUrls?: string[]
    }
  | {
      status: 'fail'
      /** Why, for the logs; the visitor sees the block's retry message. */
      reason?: string
    }

/**
 * An input plugin's `parse` export (runner.ts): validates and normalises the answer.
 * It receives the block's substituted options and `bot.block.items` as they were shown.
 */
export type InputParser<P = PluginDeclaration> = (
  context: RunnerContext<OptionsOf<P>, CredentialsOf<P>> & { answer: InputAnswer }
) => ParsedAnswer | Promise<ParsedAnswer>

/**
 * The pause a streaming runner returns (see BotRunContext.canStreamTo): the client gets a
 * `stream` client-side action, streams the text from
 * `POST /api/v2/sessions/{sessionId}/streamMessage`, then calls continueChat with the full
 * text, which is saved in the variable so the transcript is that of a plain run.
 */
export function streamReply(variableId: string): BotRunResult {
  return {
    clientSideActions: [{ type: 'stream', stream: true }],
    pause: true,
    saveReplyInVariableId: variableId,
  }
}

/**
 * A plugin's streamed answer: runner.ts exports `streams` (an object keyed by action name)
 * or `stream` (a plugin without actions). It receives the same context as the runner and
 * yields text chunks; it records AI usage itself and may set variables (token counts).
 */
export type Streamer<P = PluginDeclaration, A = never> = (
  context: RunnerContext<OptionsOf<P, A>, CredentialsOf<P>>
) => AsyncIterable<string>

/**
 * Options fetched live for a field declared with `optionsFrom: { fetcher }` (model lists,
 * voices): runner.ts exports `fetchers`, keyed by fetcher name. The context carries the
 * block's current options and decrypted credentials; a throw becomes an error the editor
 * shows next to the field.
 */
export type Fetcher<P = PluginDeclaration> = (
  context: RunnerContext<OptionsOf<P, any>, CredentialsOf<P>>
) => Promise<{ value: string; label?: string }[]>

/** What a runner of a plugin serving workflows returns: bots ignore `output`. */
export interface WorkflowRunResult {
  output?: unknown
  logs?: LogEntry[]
}

export type RunResult = BotRunResult | WorkflowRunResult | void

type FieldsIn<T> = NonNullable<T> extends Fields ? NonNullable<T> : {}

type OptionFieldsOf<P> = P extends { options?: infer O } ? FieldsIn<O> : {}

type ActionFieldsOf<P, A> = [A] extends [never]
  ? {}
  : P extends { actions?: infer Actions }
    ? A extends keyof NonNullable<Actions>
      ? NonNullable<Actions>[A] extends { options?: infer F }
        ? FieldsIn<F>
        : {}
      : {}
    : {}

/** The stored options of a plugin, for an action when it has several. */
export type OptionsOf<P, A = never> = InferFields<OptionFieldsOf<P>> &
  InferFields<ActionFieldsOf<P, A>> & { action?: string; credentialsId?: string }

export type CredentialsOf<P> = P extends { credentials?: infer C } ? InferFields<FieldsIn<C>> : {}

/** A runner of a plugin (or of one of its actions). */
export type Runner<P = PluginDeclaration, A = never> = (
  context: RunnerContext<OptionsOf<P, A>, CredentialsOf<P>>
) => RunResult | Promise<RunResult>

/**
 * What a runner failure becomes: an error log entry. The flow goes on: a block's
 * failure does not stop the chat or the run's other branches.
 */
export function errorToLog(error: unknown, description?: string): LogEntry {
  if (error instanceof Error) {
    const details: Record<string, unknown> = { name: error.name, message: error.message }
    const extra = (error as any).details
    if (extra !== undefined) details.details = extra
    return { status: 'error', description: description ?? error.message, details }
  }
  return {
    status: 'error',
    description: description ?? (typeof error === 'string' ? error : 'The block failed'),
    details: error === undefined ? undefined : error,
  }
}

/** Runs a runner and turns a throw into an error log, so the caller never sees it. */
export async function runSafely<C>(
  runner: (context: C) => RunResult | Promise<RunResult>,
  context: C
): Promise<{ result: RunResult; error?: LogEntry }> {
  try {
    return { result: await runner(context) }
  } catch (error) {
    return { result: undefined, error: errorToLog(error) }
  }
}
