import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  runSafely,
  type LogEntry,
  type PluginDeclaration,
  type PluginSurface,
  type Runner,
} from '#plugins/define_plugin'
import type { WorkflowNodeContext } from '#engine/workflow/node_context'
import {
  buildContext,
  createVariableStore,
  substitutedOptions,
  type VariableState,
} from '#services/runner_context'
import { readStoredFile, storedKeyOf } from '#services/storage'
import { botContext, memoryAi } from './unit/plugins/runners/bot_context.js'

/**
 * Runs a plugin's runner from its own folder the way the engines do (substituted options,
 * guarded HTTP, storage, sandbox), with credentials given as they would be decrypted, and
 * no database. For a plugin's own test (`plugins/<slug>/runner.spec.ts`, docs/plugins.md).
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
  signal?: AbortSignal
}

async function importFrom(folder: string, name: string) {
  for (const extension of ['ts', 'js']) {
    const path = join(folder, `${name}.${extension}`)
    if (existsSync(path)) return import(pathToFileURL(path).href)
  }
  throw new Error(`${folder} has no ${name}.ts`)
}

export async function runPluginTest(run: PluginTestRun) {
  const folder = typeof run.folder === 'string' ? run.folder : fileURLToPath(run.folder)
  const plugin = (await importFrom(folder, 'index')).default as PluginDeclaration<any, any, any>
  const module = await importFrom(folder, 'runner')
  const actions = Object.keys(plugin.actions ?? {})
  const action = run.action ?? (actions.length === 1 ? actions[0] : undefined)
  const runner = (action ? (module[action] ?? module.default?.[action]) : module.run) as
    Runner<any, any> | undefined
  if (typeof runner !== 'function') {
    throw new Error(`${plugin.id}: runner.ts exports no runner${action ? ` for "${action}"` : ''}`)
  }
  const input = {
    plugin,
    options: { ...run.options, ...(action ? { action } : {}) },
    variables: run.variables ?? [],
    workspaceId: 'test-workspace',
    surface: run.surface,
    bot: run.surface === 'bot' ? botContext().bot : undefined,
    signal: run.signal,
  }
  const logs: LogEntry[] = []
  const { store, changes } = createVariableStore(input.variables)
  const options = await substitutedOptions(input)
  const ai = Object.assign(memoryAi(), { limitExceeded: () => false })
  const context = buildContext(input, options, run.credentials ?? {}, store, logs, ai)
  const workflow: WorkflowNodeContext | undefined =
    run.surface === 'workflow'
      ? {
          runId: 'test-run',
          workflowId: 'test-workflow',
          node: { id: 'test-node', type: plugin.id },
          input: run.input ?? null,
          trigger: 'manual',
          attempt: 1,
          conditions: [],
          evaluateCondition: () => false,
        }
      : undefined
  const { result, error } = await runSafely(runner, workflow ? { ...context, workflow } : context)
  if (error) logs.push(error)
  return {
    result,
    /** What a workflow node passes on. */
    output: (result as { output?: unknown } | undefined)?.output,
    logs,
    errors: logs.filter((log) => log.status === 'error').map((log) => log.description),
    variablesSet: changes(),
  }
}

/**
 * The bytes of a file a runner stored (`storage.put` handed out its URL), from whichever disk
 * the app uses (local or S3). For a plugin's test that checks what it stored.
 */
export async function storedFile(url: string): Promise<Buffer> {
  const key = storedKeyOf(url)
  if (!key) throw new Error(`${url} is not a stored file's URL`)
  return readStoredFile(key)
}
