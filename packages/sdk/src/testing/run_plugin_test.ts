import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  runSafely,
  type AiUsage,
  type BotRunContext,
  type HttpClient,
  type LogEntry,
  type PluginDeclaration,
  type PluginSurface,
  type Runner,
  type RunnerContext,
  type RunnerStorage,
} from '../define_plugin.js'
import { notANumberLog, unsubstitutedKeysOf, withDeclaredTypes } from '../options.js'
import { substituteDeep } from '../substitute.js'
import { createVariableStore, type VariableState } from '../variables.js'
import type { RunTrigger, WorkflowNodeContext } from '../workflow.js'

/**
 * Runs a plugin's runner from its folder as the app's engines do (options substituted and read
 * with their declared types, the action's runner picked, a throw turned into an error log),
 * with no app: HTTP goes out with `fetch` (tests call local stand-ins, so no host is refused),
 * files are kept in memory and AI credits are unlimited. A plugin that needs the app's
 * sandbox or database is tested inside the app (`#sdk/testing`).
 */
export interface PluginTestRun {
  /** The plugin's folder: `new URL('./', import.meta.url)` from a test beside index.ts. */
  folder: URL | string
  surface: PluginSurface
  /** Defaults to the plugin's only action, if it has exactly one. */
  action?: string
  options?: Record<string, unknown>
  credentials?: Record<string, unknown>
  variables?: VariableState[]
  /** A workflow node's input (the previous node's output). */
  input?: unknown
  /**
   * How the workflow run started (`workflow.trigger`), `manual` by default: for a node that
   * acts differently when a webhook call, a schedule or an event started the run.
   */
  trigger?: RunTrigger
  signal?: AbortSignal
}

export interface PluginTestOutcome {
  result: unknown
  /** What a workflow node passes on. */
  output: unknown
  logs: LogEntry[]
  /** The descriptions of the error logs. */
  errors: string[]
  variablesSet: { id: string; value: unknown }[]
  /** What the runner stored with `storage.put`, by URL. */
  files: Map<string, { bytes: Uint8Array; type: string; name?: string }>
  /** What the runner reported with `ai.recordUsage`. */
  aiUsage: AiUsage[]
}

/** index and runner as compiled (.js) or as sources run by a TypeScript loader (.ts). */
async function importFrom(folder: string, name: string) {
  for (const extension of ['js', 'ts']) {
    const path = join(folder, `${name}.${extension}`)
    if (existsSync(path)) return import(pathToFileURL(path).href)
  }
  throw new Error(`${folder} has no ${name}.js or ${name}.ts`)
}

const TIMEOUT_MS = 10_000

/**
 * The `http` a test runner gets: `fetch` with the client's timeout, refusing no host (the
 * services a test calls are local stand-ins). Also what a credentials check is given in tests.
 */
export const testHttp: HttpClient = {
  request(url, { timeoutMs, signal, ...init } = {}) {
    const timeout = AbortSignal.timeout(timeoutMs ?? TIMEOUT_MS)
    return fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
  },
}

function memoryStorage(files: PluginTestOutcome['files']): RunnerStorage {
  return {
    async put(bytes, { type, name }) {
      const url = `https://files.test/${files.size + 1}/${name ?? 'file'}`
      files.set(url, { bytes, type, name })
      return url
    },
    async read(url) {
      const file = files.get(url)
      return file ? { bytes: file.bytes, name: file.name ?? 'file' } : null
    },
  }
}

function testBot(): BotRunContext {
  return {
    block: { id: 'test-block', type: 'test', groupId: 'test-group' },
    botId: 'test-bot',
    sessionId: 'test-session',
    isPreview: true,
    environment: 'web',
    textBubbleContentFormat: 'richText',
    transcript: () => [],
    evaluateCondition: () => false,
    appUrl: 'http://localhost:3333',
  }
}

/**
 * The plugin of a folder and the runner a test runs: the action asked for, or the plugin's
 * only action, or its `run` export.
 */
export async function pluginUnderTest(folderOrUrl: URL | string, asked?: string) {
  const folder = typeof folderOrUrl === 'string' ? folderOrUrl : fileURLToPath(folderOrUrl)
  const plugin = (await importFrom(folder, 'index')).default as PluginDeclaration<any, any, any>
  const module = await importFrom(folder, 'runner')
  const actions = Object.keys(plugin.actions ?? {})
  const action = asked ?? (actions.length === 1 ? actions[0] : undefined)
  const runner = (action ? (module[action] ?? module.default?.[action]) : module.run) as
    Runner<any, any> | undefined
  if (typeof runner !== 'function') {
    throw new Error(`${plugin.id}: runner exports no runner${action ? ` for "${action}"` : ''}`)
  }
  return { plugin, runner, action }
}

/**
 * What a workflow node's runner gets as `workflow` in a test: the first attempt of a run
 * started manually unless told otherwise.
 */
export function testWorkflowNode(
  pluginId: string,
  input: unknown,
  trigger: RunTrigger = 'manual'
): WorkflowNodeContext {
  return {
    runId: 'test-run',
    workflowId: 'test-workflow',
    node: { id: 'test-node', type: pluginId },
    input: input ?? null,
    trigger,
    attempt: 1,
    conditions: [],
    evaluateCondition: () => false,
  }
}

export async function runPluginTest(run: PluginTestRun): Promise<PluginTestOutcome> {
  const { plugin, runner, action } = await pluginUnderTest(run.folder, run.action)
  const stored = { ...run.options, ...(action ? { action } : {}) }
  const variables = run.variables ?? []
  const substituted = substituteDeep(stored, variables, { skipKeys: unsubstitutedKeysOf(plugin) })
  if (substituted.expressions.length > 0) {
    throw new Error('{{= expressions =}} run in the app sandbox: test them inside the app')
  }
  const logs: LogEntry[] = []
  const files: PluginTestOutcome['files'] = new Map()
  const aiUsage: AiUsage[] = []
  const { store, changes } = createVariableStore(variables)
  const context: RunnerContext = {
    surface: run.surface,
    workspaceId: 'test-workspace',
    bot: run.surface === 'bot' ? testBot() : undefined,
    options: withDeclaredTypes(
      plugin,
      substituted.value as Record<string, unknown>,
      (label, text) => logs.push(notANumberLog(plugin.name, label, text))
    ),
    credentials: run.credentials ?? {},
    variables: store,
    logger: {
      success: (description, details) => logs.push({ status: 'success', description, details }),
      info: (description, details) => logs.push({ status: 'info', description, details }),
      error: (description, details) => logs.push({ status: 'error', description, details }),
    },
    http: testHttp,
    storage: memoryStorage(files),
    ai: {
      ensureCredits: async () => {},
      recordUsage: async (usage) => void aiUsage.push(usage),
    },
    signal: run.signal ?? AbortSignal.timeout(60_000),
  }
  const workflow =
    run.surface === 'workflow' ? testWorkflowNode(plugin.id, run.input, run.trigger) : undefined
  const { result, error } = await runSafely(runner, workflow ? { ...context, workflow } : context)
  if (error) logs.push(error)
  return { ...testOutcome(result, logs, changes()), files, aiUsage }
}

/** What a test reads of a run: its result, the node's output, the logs and their errors. */
export function testOutcome(
  result: unknown,
  logs: LogEntry[],
  variablesSet: { id: string; value: unknown }[]
) {
  return {
    result,
    /** What a workflow node passes on. */
    output: (result as { output?: unknown } | undefined)?.output,
    logs,
    errors: logs.filter((log) => log.status === 'error').map((log) => log.description),
    variablesSet,
  }
}
