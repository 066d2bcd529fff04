import { pluginRegistry } from '#services/plugin_registry'
import type { AnyPlugin } from '#plugins/registry'
import type { WorkflowBlock } from '#shared/workflow/types'

/**
 * A plugin manifest declares a wait node (one that parks the run until a timer or a
 * webhook resumes it) with `waits: true`.
 */
export function isWaitPlugin(plugin: AnyPlugin | undefined) {
  return (plugin as { waits?: unknown } | undefined)?.waits === true
}

/** What compileExecutable needs to know of the installed plugins. */
export async function workflowNodeCatalogue() {
  const registry = await pluginRegistry()
  return {
    categoryOf: (type: string): string | undefined => registry.get(type)?.category,
    isWaitNode: (block: WorkflowBlock) => isWaitPlugin(registry.get(block.type)),
  }
}
