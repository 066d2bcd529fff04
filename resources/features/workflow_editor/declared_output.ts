import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import {
  outputSchemaOf,
  schemaOfValue,
  type OutputSchema,
} from '../../../app/plugins/output_schema.js'
import type { WorkflowEditorPlugin } from './types.js'

/**
 * What a node will output, known before any run: its pinned sample, else the output its
 * plugin declares for its options (`outputSchema`), following nodes that pass their input
 * on back to where the data comes from. The `{{` completion and the node panel use it
 * until a test run gives real data.
 */
export interface DeclaredOutput {
  /** A real sample (pinned data), with values. */
  sample?: unknown
  schema: OutputSchema
}

type Doc = { blocks: readonly WorkflowBlock[]; edges: readonly WorkflowEdge[] }

/** The one node whose output reaches this one (none, or several joined: undefined). */
function onlyPredecessor(doc: Doc, nodeId: string): string | undefined {
  const from = new Set(
    doc.edges
      .filter((edge) => !edge.isAttachment && edge.to.blockId === nodeId)
      .map((edge) => edge.from.blockId)
  )
  return from.size === 1 ? [...from][0] : undefined
}

export function declaredOutput(
  doc: Doc,
  plugins: ReadonlyMap<string, Pick<WorkflowEditorPlugin, 'outputSchema'>>,
  nodeId: string,
  depth = 0
): DeclaredOutput | undefined {
  const block = doc.blocks.find((candidate) => candidate.id === nodeId)
  if (!block || depth > 20) return undefined
  if (block.pinnedData !== undefined) {
    return { sample: block.pinnedData, schema: schemaOfValue(block.pinnedData) }
  }
  const declared = outputSchemaOf(plugins.get(block.type)?.outputSchema, block.options ?? {})
  if (declared === 'input') return declaredInput(doc, plugins, nodeId, depth + 1)
  return declared ? { schema: declared } : undefined
}

/** What a node will receive: its single predecessor's declared output. */
export function declaredInput(
  doc: Doc,
  plugins: ReadonlyMap<string, Pick<WorkflowEditorPlugin, 'outputSchema'>>,
  nodeId: string,
  depth = 0
): DeclaredOutput | undefined {
  const from = onlyPredecessor(doc, nodeId)
  return from ? declaredOutput(doc, plugins, from, depth) : undefined
}
