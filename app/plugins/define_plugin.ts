/**
 * The plugin contract: what a plugin declares (its manifest, imported by the server and
 * by the browser) and what its runner receives and returns (server only).
 *
 * Like fields.ts this module is imported by manifests in the browser: type-only imports
 * aside, it must not import Node or server modules.
 */
import type { Fields, InferFields } from './fields.js'

export const BOT_CATEGORIES = ['bubble', 'input', 'logic', 'integration'] as const
export const WORKFLOW_CATEGORIES = ['trigger', 'action', 'model', 'tool', 'data', 'flow'] as const
export const PLUGIN_CATEGORIES = [...BOT_CATEGORIES, ...WORKFLOW_CATEGORIES] as const
export const PLUGIN_SCOPES = ['user', 'workspace'] as const
export const PLUGIN_SURFACES = ['bot', 'workflow'] as const

export type BotCategory = (typeof BOT_CATEGORIES)[number]
export type WorkflowCategory = (typeof WORKFLOW_CATEGORIES)[number]
export type PluginCategory = (typeof PLUGIN_CATEGORIES)[number]
export type PluginScope = (typeof PLUGIN_SCOPES)[number]
export type PluginSurface = (typeof PLUGIN_SURFACES)[number]

export interface ActionDeclaration<F extends Fields = Fields> {
  label: string
  description?: string
  options?: F
}

/**
 * Items a bot block carries beside its options (choice buttons, condition branches,
 * AB-test paths). Each item has an id and its own outgoing edge; `fields` describe the
 * rest of the item.
 */
export interface ItemsDeclaration<F extends Fields = Fields> {
  fields: F
  /** Fewer items than this cannot exist (the last item of a block cannot be deleted). */
  min?: number
  max?: number
  /** Items of a freshly dropped block (ids are added by the editor). */
  defaultItems?: readonly Record<string, unknown>[]
}

export interface PluginDeclaration<
  Options extends Fields = Fields,
  Actions extends Record<string, ActionDeclaration<any>> = Record<string, ActionDeclaration<any>>,
  Credentials extends Fields = Fields,
> {
  /** The block `type` stored in bot and workflow JSON, e.g. 'text input' or 'openai'. */
  id: string
  /**
   * The folder name under plugins/. Defaults to slugOf(id); set it only when two ids
   * share a slug ('Webhook' and 'webhook').
   */
  slug?: string
  name: string
  description?: string
  category: PluginCategory
  /** Who owns the credentials the plugin uses: the user or the whole workspace. */
  scope: PluginScope
  /** A lucide icon name, or a path relative to the plugin folder (icon.svg). */
  icon?: string
  version: number
  docsUrl?: string
  serves: readonly PluginSurface[]
  /**
   * Where a bot block keeps its configuration. Bubbles of the v6 format keep it in
   * `content`, every other block in `options`.
   */
  storedIn?: 'options' | 'content'
  /** Fields shared by every action (or the only fields, for a block without actions). */
  options?: Options
  /** Named actions; the chosen key is stored in options.action. */
  actions?: Actions
  /** The credential record's fields; their type is the plugin id. */
  credentials?: Credentials
  items?: ItemsDeclaration<any>
}

/**
 * Identity function: it only gives the declaration its type, keeping the literal types
 * (field kinds, enum values, action names) that runners infer their options from.
 */
export function definePlugin<
  const Options extends Fields = {},
  const Actions extends Record<string, ActionDeclaration<any>> = {},
  const Credentials extends Fields = {},
  const Declaration extends PluginDeclaration<Options, Actions, Credentials> = PluginDeclaration<
    Options,
    Actions,
    Credentials
  >,
>(declaration: Declaration & PluginDeclaration<Options, Actions, Credentials>): Declaration {
  return declaration
}

/** The folder name of an id: lower case, every run of other characters becomes '-'. */
export function slugOf(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function pluginSlug(declaration: Pick<PluginDeclaration, 'id' | 'slug'>) {
  return declaration.slug ?? slugOf(declaration.id)
}

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
  /** Stores the bytes and returns a public URL. */
  put(bytes: Uint8Array, options: { type: string; name?: string }): Promise<string>
}

/** The isolated-vm pool (app/sandbox); declared here so runners can be typed. */
export interface RunnerSandbox {
  run(code: string, variables: Record<string, unknown>): Promise<unknown>
}

export interface RunnerContext<
  Options = Record<string, unknown>,
  Credentials = Record<string, unknown>,
> {
  /** Options with {{variables}} already substituted. */
  options: Options
  /** Decrypted credentials, when the block uses some. */
  credentials: Credentials
  variables: RunnerVariables
  logger: RunnerLogger
  http: HttpClient
  storage: RunnerStorage
  sandbox?: RunnerSandbox
  signal: AbortSignal
}

export interface ChatMessage {
  id?: string
  type: string
  content: unknown
}

export interface BotRunResult {
  outgoingEdgeId?: string
  messages?: ChatMessage[]
  input?: unknown
  clientSideActions?: unknown[]
  variablesToSet?: { id: string; value: VariableValue }[]
  logs?: LogEntry[]
}

export interface WorkflowRunResult {
  output: unknown
  logs: LogEntry[]
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
 * What a runner failure becomes: an error log entry. The flow goes on (spec: block
 * failures do not stop the flow).
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
