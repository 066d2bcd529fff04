import env from '#start/env'
import { appUrl } from '#config/app'
import Credential from '#models/credential'
import { readCredentials } from '#services/credentials'
import { withOAuthClient } from '#services/oauth_clients'
import {
  privateKey,
  putFile,
  readStoredFile,
  storedKeyOf,
  visibilityOf,
  workspaceOfKey,
} from '#services/storage'
import { newId } from '#services/ids'
import { evaluateExpression, runInSandbox } from '#sandbox/sandbox'
import { createGuardedHttp } from '#plugins/guarded_http'
import { substituteDeep, formatVariableValue } from '#plugins/substitute'
import { unsubstitutedKeysOf } from '#plugins/derive'
import { notANumberLog, withDeclaredTypes } from '../../packages/sdk/src/options.js'
import { aiPort } from '#services/ai/credits'
import {
  runSafely,
  storedActionOf,
  type LogEntry,
  type RunResult,
  type Runner,
  type RunnerContext,
  type RunnerVariables,
  type VariableValue,
  type BotRunContext,
  type InputAnswer,
  type InputParser,
  type ParsedAnswer,
  type Streamer,
  type PluginSurface,
  errorToLog,
} from '#plugins/define_plugin'
import type { AnyPlugin, PluginRegistry } from '#plugins/registry'
import { credentialEgress } from '#services/egress'

/**
 * Builds what a plugin runner receives (docs/plugins.md) and runs it. Engines (bot chat,
 * workflow executor) call `runPlugin`; nothing here reads an HTTP context, so queue workers
 * use it as well.
 */

// The variables' store is the SDK's (packages/sdk), so its test harness keeps them as the engines do.
import { createVariableStore, type VariableState } from '../../packages/sdk/src/variables.js'
export { createVariableStore, type VariableState }

export interface RunPluginInput {
  registry: PluginRegistry
  plugin: AnyPlugin
  /** The block's stored options (before substitution). */
  options: Record<string, unknown>
  variables: readonly VariableState[]
  /** The workspace the bot or workflow belongs to: credentials must come from it. */
  workspaceId: string
  /** Whose user-scoped credentials may be used (the bot's or workflow's owner). */
  ownerId?: string | null
  timeoutMs?: number
  signal?: AbortSignal
  /** Set when a bot block runs (the chat engine). */
  bot?: BotRunContext
  /** Where it runs; by default 'bot' when `bot` is set, else 'workflow'. */
  surface?: PluginSurface
  /** A plugin without a runner is fine (bubbles and inputs need none): no error log. */
  runnerIsOptional?: boolean
  /** What every attempt of this work shares (RunnerContext.idempotencyKey). */
  idempotencyKey?: string
  /**
   * Calls go out with a credential held elsewhere (a model node attached to an agent), so
   * they may reach the operator's listed internal hosts as the block's own credential would.
   */
  usesCredentials?: boolean
}

export interface RunPluginOutput {
  result: RunResult
  logs: LogEntry[]
  variablesSet: { id: string; value: VariableValue }[]
  /** The options as the runner received them ({{variables}} substituted). */
  options: Record<string, unknown>
  /** The runner stopped because the owner has no AI credits left. */
  aiCreditLimitExceeded?: boolean
}

/**
 * Evaluates each {{= expression =}} in the sandbox. A {{Variable}} inside an expression reads
 * the variable's value (not its text), so `{{= {{Count}} * 2 =}}` computes with numbers and
 * a value can never inject code.
 */
async function evaluateExpressions(
  text: string,
  variables: readonly VariableState[],
  tenant: SandboxTenant
): Promise<string> {
  const scope = Object.fromEntries(variables.map((v) => [v.name, v.value ?? null]))
  let output = text
  for (const match of text.matchAll(/\{\{=([\s\S]+?)=\}\}/g)) {
    const expression = match[1]
      .trim()
      .replace(
        /\{\{([^{}]+?)\}\}/g,
        (_, name: string) => `variables[${JSON.stringify(name.trim())}]`
      )
    const evaluated = await evaluateExpression(expression, scope, { timeoutMs: 10_000, ...tenant })
    output = output.replace(match[0], evaluated.ok ? formatVariableValue(evaluated.value) : '')
  }
  return output
}

/** Who the sandbox runs code for: its per-workspace cap and queue (docs/sandbox.md). */
interface SandboxTenant {
  workspaceId: string
  signal?: AbortSignal
}

async function resolveExpressions(
  value: unknown,
  variables: readonly VariableState[],
  tenant: SandboxTenant
): Promise<unknown> {
  if (typeof value === 'string')
    return value.includes('{{=') ? evaluateExpressions(value, variables, tenant) : value
  if (Array.isArray(value))
    return Promise.all(value.map((v) => resolveExpressions(v, variables, tenant)))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value))
      out[k] = await resolveExpressions(v, variables, tenant)
    return out
  }
  return value
}

export async function credentialsFor(input: Omit<RunPluginInput, 'registry'>, logs: LogEntry[]) {
  const id = input.options.credentialsId
  // Not only plugins with their own credential schema: a workflow Model node picks
  // credentials of its provider's type (field.credentials({ credentialType: 'openai' })).
  if (typeof id !== 'string' || !id) return {}
  const record = await Credential.find(id)
  const usable =
    record &&
    record.workspaceId === input.workspaceId &&
    (input.plugin.scope === 'workspace' || !input.ownerId || record.userId === input.ownerId)
  if (!usable) {
    logs.push({
      status: 'error',
      description: `${input.plugin.name}: the selected credentials were not found`,
    })
    return null
  }
  try {
    return await withOAuthClient(record.type, readCredentials(record))
  } catch (error) {
    logs.push({ status: 'error', description: (error as Error).message })
    return null
  }
}

export async function runPlugin(input: RunPluginInput): Promise<RunPluginOutput> {
  const logs: LogEntry[] = []
  const action = storedActionOf(input.plugin, input.options)
  const runner = (await input.registry.runnerOf(input.plugin.id, action)) as
    Runner<any, any> | undefined
  if (!runner) {
    if (input.runnerIsOptional) {
      return { result: undefined, logs, variablesSet: [], options: await substitutedOptions(input) }
    }
    logs.push({
      status: 'error',
      description: `${input.plugin.name}${action ? ` (${action})` : ''} cannot run on the server`,
    })
    return { result: undefined, logs, variablesSet: [], options: input.options }
  }
  return runWithContext(runner, input, logs)
}

/**
 * The options a runner receives: variables substituted, expressions evaluated, then read with
 * their declared types; `logs`, when given, gets an error for a number field whose variable
 * held something else.
 */
export async function substitutedOptions(
  input: Omit<RunPluginInput, 'registry'>,
  logs?: LogEntry[]
) {
  const substituted = substituteDeep(input.options, input.variables, {
    skipKeys: unsubstitutedKeysOf(input.plugin),
  })
  const resolved = (
    substituted.expressions.length > 0
      ? await resolveExpressions(substituted.value, input.variables, {
          workspaceId: input.workspaceId,
          signal: input.signal,
        })
      : substituted.value
  ) as Record<string, unknown>
  return withDeclaredTypes(input.plugin, resolved, (label, text) =>
    logs?.push(notANumberLog(input.plugin.name, label, text))
  )
}

const SOURCE = Symbol('contextSource')

/** What the context's parts made on first read are made from, and what they became. */
interface ContextSource {
  [SOURCE]: {
    input: Omit<RunPluginInput, 'registry'>
    store: RunnerVariables
    signal?: AbortSignal
    timeoutMs?: number
    made: Partial<Pick<RunnerContext, 'signal' | 'http' | 'storage' | 'sandbox'>>
  }
}

/**
 * The parts of a context most runners never touch, made on first read: `signal` (a timeout
 * signal per block kept a timer and weak references alive for a minute, which under chat
 * load was most of what reached the old generation), and the HTTP client, the storage and
 * the sandbox (a set variable, a condition or an input's parser use none of them, and each
 * was a few objects and closures per block run).
 * One getter per part serves every context (it finds it as `this`): an object literal's
 * `get signal() {}` is a new accessor per context, and V8 then kept each context and all it
 * reaches through young-generation collections (see lazyContextProperty in
 * app/middleware/public_api_request.ts). They stay own enumerable properties, so a spread
 * (`{ ...context }`) still carries them, but makes them all: add to a context with
 * Object.assign instead.
 */
function lazyPart<K extends keyof ContextSource[typeof SOURCE]['made']>(
  key: K,
  make: (source: ContextSource[typeof SOURCE]) => RunnerContext[K]
): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: true,
    get(this: ContextSource) {
      const made = this[SOURCE].made
      return (made[key] ??= make(this[SOURCE]))
    },
  }
}

const lazyParts: PropertyDescriptorMap = {
  signal: lazyPart('signal', (source) => {
    const timeout = AbortSignal.timeout(source.timeoutMs ?? 60_000)
    return source.signal ? AbortSignal.any([source.signal, timeout]) : timeout
  }),
  // A block using a credential may reach the operator's listed internal hosts (a local model
  // server); one without (the HTTP block) may not.
  http: lazyPart('http', ({ input }) => {
    return createGuardedHttp({
      ...(input.options.credentialsId || input.usesCredentials
        ? credentialEgress()
        : { allowInternal: env.get('ALLOW_INTERNAL_HTTP') }),
      idempotencyKey: input.idempotencyKey,
    })
  }),
  storage: lazyPart('storage', ({ input }) => {
    return {
      async put(bytes, { type, name, visibility }) {
        const extension = (name?.split('.').pop() ?? type.split('/').pop() ?? 'bin').replace(
          /[^a-z0-9]/gi,
          ''
        )
        const file = `${newId()}.${extension}`
        const key =
          visibility === 'private'
            ? privateKey(input.workspaceId, 'files', file)
            : `public/${input.workspaceId}/${file}`
        const path = await putFile(key, Buffer.from(bytes), { contentType: type })
        return `${appUrl}${path}`
      },
      async read(url) {
        const key = storedKeyOf(url)
        if (!key) return null
        // Public files are anyone's to read by URL; private ones only the workspace's.
        if (visibilityOf(key) === 'private' && workspaceOfKey(key) !== input.workspaceId) {
          throw new Error('This file belongs to another workspace')
        }
        const bytes = await readStoredFile(key)
        return { bytes, name: key.split('/').pop() ?? 'file' }
      },
    }
  }),
  sandbox: lazyPart('sandbox', ({ input, store }) => {
    return {
      async run(code, variables) {
        // Variables by name (as the Code block reads them) and under `variables`. The
        // workspace decides the run's queue and cap; the caller's own signal (not the lazy
        // context one) lets a stopped run free its isolate.
        const outcome = await runInSandbox(code, {
          variables,
          args: variables,
          workspaceId: input.workspaceId,
          signal: input.signal,
        })
        // The code's setVariable calls apply all together, or not at all when the run failed
        // or one call was refused (a limit), even if the code caught that refusal.
        if (!outcome.ok) {
          throw new Error(
            `${outcome.error.name}: ${outcome.error.message}` +
              (outcome.variablesSet.length || outcome.refusedSet
                ? ' (no variable was changed)'
                : '')
          )
        }
        if (outcome.refusedSet) {
          throw new Error(`${outcome.refusedSet} (no variable was changed)`)
        }
        for (const { name, value } of outcome.variablesSet) {
          const target = store.list().find((v) => v.name === name)
          if (target) store.set(target.id, value as VariableValue)
        }
        return outcome.value
      },
    }
  }),
}

/** The context every runner and parser receives (docs/plugins.md). */
export function buildContext(
  input: Omit<RunPluginInput, 'registry'>,
  options: Record<string, unknown>,
  credentials: Record<string, unknown>,
  store: RunnerVariables,
  logs: LogEntry[],
  ai = aiPort({
    ownerId: input.ownerId,
    workspaceId: input.workspaceId,
    source: input.plugin.id,
    countsAsAiCall: true,
  })
): RunnerContext {
  const context: Omit<RunnerContext, 'signal' | 'http' | 'storage' | 'sandbox'> & ContextSource = {
    surface: input.surface ?? (input.bot ? 'bot' : 'workflow'),
    workspaceId: input.workspaceId,
    bot: input.bot,
    options,
    credentials,
    variables: store,
    logger: {
      success: (description, details) => logs.push({ status: 'success', description, details }),
      info: (description, details) => logs.push({ status: 'info', description, details }),
      error: (description, details) => logs.push({ status: 'error', description, details }),
    },
    ai,
    idempotencyKey: input.idempotencyKey,
    [SOURCE]: { input, store, signal: input.signal, timeoutMs: input.timeoutMs, made: {} },
  }
  // Added, not declared in the literal above: turning a data property into an accessor
  // would put every context in V8's slow dictionary mode.
  return Object.defineProperties(context, lazyParts) as typeof context &
    Pick<RunnerContext, 'signal' | 'http' | 'storage' | 'sandbox'>
}

/** Runs one runner with a full context; a throw becomes an error log and the flow goes on. */
export async function runWithContext(
  runner: Runner<any, any>,
  input: Omit<RunPluginInput, 'registry'>,
  logs: LogEntry[] = []
): Promise<RunPluginOutput> {
  const { store, changes } = createVariableStore(input.variables)
  const options = await substitutedOptions(input, logs)

  const credentials = await credentialsFor(input, logs)
  if (credentials === null) return { result: undefined, logs, variablesSet: [], options }

  const ai = aiPort({
    ownerId: input.ownerId,
    workspaceId: input.workspaceId,
    source: input.plugin.id,
    countsAsAiCall: true,
  })
  const context = buildContext(input, options, credentials, store, logs, ai)
  const { result, error } = await runSafely(runner, context)
  if (error) logs.push(error)
  const output: RunPluginOutput = { result, logs, variablesSet: changes(), options }
  if (ai.limitExceeded()) output.aiCreditLimitExceeded = true
  return output
}

/**
 * Parses a visitor's answer with an input plugin's parser. The options are those the
 * input was shown with (already substituted). A throwing parser refuses the answer.
 */
export async function parseWithContext(
  parser: InputParser<any>,
  input: Omit<RunPluginInput, 'registry'>,
  answer: InputAnswer
): Promise<{ parsed: ParsedAnswer; logs: LogEntry[] }> {
  const logs: LogEntry[] = []
  const { store } = createVariableStore(input.variables)
  const credentials = (await credentialsFor(input, logs)) ?? {}
  const context = buildContext(input, input.options, credentials, store, logs)
  try {
    // Assigned, not spread: a spread would read (and so make) the lazy signal.
    return { parsed: await parser(Object.assign(context, { answer })), logs }
  } catch (error) {
    logs.push(errorToLog(error))
    return { parsed: { status: 'fail', reason: (error as Error).message }, logs }
  }
}

export interface StreamPluginOutput {
  /** The text chunks, as the plugin's streamer yields them (nothing runs before the first pull). */
  chunks: AsyncIterable<string>
  logs: LogEntry[]
  /** Variables the streamer set so far (token counts, a conversation id). */
  variablesSet(): { id: string; value: VariableValue }[]
  /** The streamer stopped because the owner has no AI credits left. */
  aiCreditLimitExceeded(): boolean
  options: Record<string, unknown>
}

/**
 * Runs a plugin's streamer (BotRunContext.canStreamTo) with the context a runner of the same
 * block gets: substituted options, decrypted credentials, the ai port for credits. Returns
 * null (with the reason in `logs`) when the block's credentials cannot be used. Unlike
 * runWithContext, a throw of the streamer reaches the caller: the stream endpoint answers
 * with its status before the first chunk.
 */
export async function streamWithContext(
  streamer: Streamer<any, any>,
  input: Omit<RunPluginInput, 'registry'>,
  logs: LogEntry[] = []
): Promise<StreamPluginOutput | null> {
  const { store, changes } = createVariableStore(input.variables)
  const options = await substitutedOptions(input, logs)
  const credentials = await credentialsFor(input, logs)
  if (credentials === null) return null
  const ai = aiPort({
    ownerId: input.ownerId,
    workspaceId: input.workspaceId,
    source: input.plugin.id,
    countsAsAiCall: true,
  })
  const context = buildContext(input, options, credentials, store, logs, ai)
  return {
    chunks: {
      [Symbol.asyncIterator]: () => streamer(context)[Symbol.asyncIterator](),
    },
    logs,
    variablesSet: changes,
    aiCreditLimitExceeded: () => ai.limitExceeded(),
    options,
  }
}
