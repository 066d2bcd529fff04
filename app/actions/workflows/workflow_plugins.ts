import { pluginRegistry } from '#services/plugin_registry'
import type { AnyPlugin } from '#plugins/registry'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { categoryOn, storedOptionsOf, type AttachmentSlotDeclaration } from '#plugins/define_plugin'

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
    categoryOf: (type: string): string | undefined => {
      const plugin = registry.get(type)
      return plugin ? categoryOn(plugin, 'workflow') : undefined
    },
    isWaitNode: (block: WorkflowBlock) => isWaitPlugin(registry.get(block.type)),
    nodeName: (type: string) => registry.get(type)?.name ?? type,
    requiredSlotsOf: (type: string) =>
      (registry.get(type)?.attachments ?? []).filter((slot) => slot.required === true),
  }
}

/**
 * The first enabled node that misses a required attachment (an LLM agent without its
 * Model), so publishing can say which node and which slot. Attachment edges leave the
 * node towards what is plugged in; edges to disabled attachments are already gone.
 */
export function missingAttachment(
  executable: { blocks: WorkflowBlock[]; edges: WorkflowEdge[] },
  requiredSlotsOf: (type: string) => readonly AttachmentSlotDeclaration[]
) {
  for (const block of executable.blocks) {
    // A disabled node is skipped: what it would need plugged in does not matter.
    if (block.isDisabled === true) continue
    for (const slot of requiredSlotsOf(block.type)) {
      const plugged = executable.edges.some(
        (edge) =>
          edge.isAttachment === true &&
          edge.attachmentName === slot.name &&
          edge.from.blockId === block.id
      )
      if (!plugged) return { block, slot }
    }
  }
  return undefined
}

/**
 * Nodes stored under a folded plugin's former id are shown as that plugin: the type becomes
 * its id and the options its shape (`storedOptionsOf`: `fromAlias`, the only action).
 * Saving the workflow then stores the current id.
 */
export function withCanonicalTypes<B extends WorkflowBlock>(
  blocks: readonly B[],
  registry: { get(id: string): AnyPlugin | undefined }
): B[] {
  return blocks.map((block) => {
    const plugin = registry.get(block.type)
    if (!plugin || plugin.id === block.type) return block
    const options = (block.options ?? {}) as Record<string, unknown>
    return {
      ...block,
      type: plugin.id,
      options: storedOptionsOf(plugin, block.type, options, 'workflow'),
    }
  })
}
