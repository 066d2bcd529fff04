import { runSafely, type LogEntry } from '#plugins/define_plugin'
import { buildContext, createVariableStore, substitutedOptions } from '#services/runner_context'
import { readStoredFile, storedKeyOf } from '#services/storage'
import {
  pluginUnderTest,
  testOutcome,
  testWorkflowNode,
  type PluginTestRun,
} from '../../../packages/sdk/src/testing/run_plugin_test.js'
import { botContext, memoryAi } from './bot_context.js'

export type { PluginTestRun }

/**
 * Runs a plugin's runner from its own folder the way the engines do (substituted options,
 * guarded HTTP, storage, sandbox), with credentials given as they would be decrypted, and
 * no database. For a plugin's own test (`plugins/<slug>/runner.spec.ts`, docs/plugins.md).
 * The SDK package's runPluginTest (@flowcraft/sdk/testing) is the same run without the app:
 * the plugin, its runner and the workflow node are found the same way.
 */
export async function runPluginTest(run: PluginTestRun) {
  const { plugin, runner, action } = await pluginUnderTest(run.folder, run.action)
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
  const options = await substitutedOptions(input, logs)
  const ai = Object.assign(memoryAi(), { limitExceeded: () => false })
  const context = buildContext(input, options, run.credentials ?? {}, store, logs, ai)
  const workflow =
    run.surface === 'workflow' ? testWorkflowNode(plugin.id, run.input, run.trigger) : undefined
  const { result, error } = await runSafely(runner, workflow ? { ...context, workflow } : context)
  if (error) logs.push(error)
  return testOutcome(result, logs, changes())
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
