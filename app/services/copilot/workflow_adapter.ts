import { categoryOn } from '#plugins/define_plugin'
import { defaultItemsOf, editorViewOf } from '#plugins/derive'
import { newId } from '#services/ids'
import { omit, round2 } from '#shared/bot/graph'
import type { WorkflowBlock, WorkflowEdge, WorkflowSnapshot } from '#shared/workflow/types'
import { validateWorkflow } from '#shared/workflow/validate'
import {
  assertKnownOptions,
  checkedDoc,
  COMMON_TOOLS,
  commonTool,
  hinted,
  issuesOf,
  objectArg,
  optionalString,
  pluginFor,
  positionArg,
  positionOf,
  recordArg,
  stringArg,
  tool,
  ToolRefusal,
  type CopilotAdapter,
  type ToolContext,
  type ToolOutcome,
} from './tools.js'

/**
 * The copilot's tools on a workflow (docs/copilot.md "Workflow tools"). Each call changes a
 * working copy under the editor's rules: a node
 * starts with its plugin's defaults, an edge never loops on its node nor repeats, removing
 * a node removes its edges, and every node's outgoingEdgeId names its first default edge.
 * The copy is checked against the workflow format after each call; a refused call leaves
 * it as it was. The whole is saved once, as one history version, by the caller.
 */

type Doc = WorkflowSnapshot

/** Where a node lands when the model gives no position: right of the rightmost node. */
const STEP_X = 300

function defaultPosition(doc: Doc, after?: WorkflowBlock): { x: number; y: number } {
  if (after) return { x: after.graphCoordinates.x + STEP_X, y: after.graphCoordinates.y }
  if (doc.blocks.length === 0) return { x: 0, y: 0 }
  const rightmost = doc.blocks.reduce((a, b) =>
    b.graphCoordinates.x > a.graphCoordinates.x ? b : a
  )
  return { x: rightmost.graphCoordinates.x + STEP_X, y: rightmost.graphCoordinates.y }
}

function nodeOf(doc: Doc, id: string): WorkflowBlock {
  const block = doc.blocks.find((candidate) => candidate.id === id)
  if (!block) throw new ToolRefusal(`No node has the id "${id}".`)
  return block
}

/** Each node's outgoingEdgeId names the first edge of its default path, or is absent. */
function reconcileOutgoing(doc: Doc): Doc {
  const blocks = doc.blocks.map((block) => {
    const first = doc.edges.find(
      (edge) => !edge.isAttachment && edge.from.blockId === block.id && !edge.from.conditionId
    )
    if (block.outgoingEdgeId === first?.id) return block
    return first ? { ...block, outgoingEdgeId: first.id } : omit(block, 'outgoingEdgeId')
  })
  return { ...doc, blocks }
}

const checked = (doc: Doc) =>
  checkedDoc(doc, 'workflow', validateWorkflow({ ...doc, name: doc.name || 'Workflow' }))

const TOOLS = [
  ...COMMON_TOOLS,
  tool(
    'add_node',
    'Adds a node of a type from the catalogue, with its defaults. Returns its id. Pass connectFrom to link the new node after an existing one.',
    {
      type: { type: 'string' },
      title: { type: 'string' },
      options: hinted(objectArg, 'Field values, named as describe_node_type says'),
      position: positionArg,
      connectFrom: hinted({ type: 'string' }, 'The id of the node the new node follows'),
    },
    ['type']
  ),
  tool(
    'remove_node',
    'Removes a node and every edge from or to it.',
    { nodeId: { type: 'string' } },
    ['nodeId']
  ),
  tool(
    'connect_nodes',
    'Links a node to the next one (its default path, or a condition branch). With slot, plugs a model or tool node into an agent instead.',
    {
      fromNodeId: { type: 'string' },
      toNodeId: { type: 'string' },
      conditionId: { type: 'string' },
      slot: hinted({ type: 'string' }, "An agent's attachment slot: 'model' or 'tools'"),
    },
    ['fromNodeId', 'toNodeId']
  ),
  tool('disconnect', 'Removes one edge.', { edgeId: { type: 'string' } }, ['edgeId']),
  tool(
    'configure_node',
    'Sets fields of a node (merged into its options), its title, or whether it is disabled.',
    {
      nodeId: { type: 'string' },
      options: objectArg,
      title: { type: 'string' },
      isDisabled: { type: 'boolean' },
    },
    ['nodeId']
  ),
]

async function apply(
  doc: Doc,
  name: string,
  args: Record<string, unknown>,
  context: ToolContext
): Promise<ToolOutcome<Doc>> {
  const common = commonTool(name, args, context)
  if (common !== undefined) return { doc, result: common }

  if (name === 'add_node') {
    const plugin = pluginFor(stringArg(args, 'type'), context)
    const options = recordArg(args, 'options')
    assertKnownOptions(plugin, 'workflow', options)
    const after = optionalString(args, 'connectFrom')
    const previous = after ? nodeOf(doc, after) : undefined
    const position = positionOf(args) ?? defaultPosition(doc, previous)
    const { defaults } = editorViewOf(plugin, 'workflow')
    const block: WorkflowBlock = {
      id: newId(),
      type: plugin.id,
      graphCoordinates: { x: round2(position.x), y: round2(position.y) },
    }
    const title = optionalString(args, 'title')
    if (title) block.title = title
    const merged = { ...defaults, ...options }
    if (Object.keys(merged).length > 0) block.options = merged
    if (plugin.items) {
      const declared = defaultItemsOf(plugin)
      const count = Math.max(1, plugin.items.min ?? 1, declared.length)
      block.conditions = Array.from({ length: count }, (_, i) => ({
        ...(declared[i] ?? {}),
        id: newId(),
      }))
    }
    let next: Doc = { ...doc, blocks: [...doc.blocks, block] }
    if (previous) {
      const edge: WorkflowEdge = {
        id: newId(),
        from: { blockId: previous.id },
        to: { blockId: block.id },
      }
      next = reconcileOutgoing({ ...next, edges: [...next.edges, edge] })
    }
    next = checked(next)
    return {
      doc: next,
      result: {
        nodeId: block.id,
        ...(block.conditions ? { conditionIds: block.conditions.map((c) => c.id) } : {}),
        issues: await issuesOf(block, context),
      },
    }
  }

  if (name === 'remove_node') {
    const block = nodeOf(doc, stringArg(args, 'nodeId'))
    const next = reconcileOutgoing({
      ...doc,
      blocks: doc.blocks.filter((candidate) => candidate.id !== block.id),
      edges: doc.edges.filter(
        (edge) => edge.from.blockId !== block.id && edge.to.blockId !== block.id
      ),
    })
    return { doc: checked(next), result: { removed: block.id } }
  }

  if (name === 'connect_nodes') {
    const from = nodeOf(doc, stringArg(args, 'fromNodeId'))
    const to = nodeOf(doc, stringArg(args, 'toNodeId'))
    if (from.id === to.id) throw new ToolRefusal('A node cannot be linked to itself.')
    const slotName = optionalString(args, 'slot')
    if (slotName) {
      const slots = context.registry.get(from.type)?.attachments ?? []
      const slot = slots.find((candidate) => candidate.name === slotName)
      if (!slot) {
        throw new ToolRefusal(
          `This node has no "${slotName}" slot${slots.length ? ` (its slots: ${slots.map((s) => s.name).join(', ')})` : ''}.`
        )
      }
      const target = context.registry.get(to.type)
      const accepts = slot.accepts ?? [slot.name === 'tools' ? 'tool' : slot.name]
      if (!target || !accepts.includes(categoryOn(target, 'workflow'))) {
        throw new ToolRefusal(`The "${slotName}" slot takes ${accepts.join(' or ')} nodes only.`)
      }
      const inSlot = (edge: WorkflowEdge) =>
        edge.isAttachment === true &&
        edge.from.blockId === from.id &&
        edge.attachmentName === slot.name
      if (doc.edges.some((edge) => inSlot(edge) && edge.to.blockId === to.id)) {
        return { doc, result: { unchanged: 'already plugged in' } }
      }
      const edge: WorkflowEdge = {
        id: newId(),
        from: { blockId: from.id },
        to: { blockId: to.id },
        isAttachment: true,
        attachmentName: slot.name,
      }
      const kept = slot.multiple ? doc.edges : doc.edges.filter((existing) => !inSlot(existing))
      return {
        doc: checked(reconcileOutgoing({ ...doc, edges: [...kept, edge] })),
        result: { edgeId: edge.id },
      }
    }
    const conditionId = optionalString(args, 'conditionId')
    if (conditionId && !from.conditions?.some((condition) => condition.id === conditionId)) {
      throw new ToolRefusal(`The node "${from.id}" has no condition "${conditionId}".`)
    }
    const exists = doc.edges.some(
      (edge) =>
        !edge.isAttachment &&
        edge.from.blockId === from.id &&
        (edge.from.conditionId ?? undefined) === conditionId &&
        edge.to.blockId === to.id
    )
    if (exists) return { doc, result: { unchanged: 'these nodes are already linked' } }
    const edge: WorkflowEdge = {
      id: newId(),
      from: conditionId ? { blockId: from.id, conditionId } : { blockId: from.id },
      to: { blockId: to.id },
    }
    return {
      doc: checked(reconcileOutgoing({ ...doc, edges: [...doc.edges, edge] })),
      result: { edgeId: edge.id },
    }
  }

  if (name === 'disconnect') {
    const edgeId = stringArg(args, 'edgeId')
    if (!doc.edges.some((edge) => edge.id === edgeId))
      throw new ToolRefusal(`No edge has the id "${edgeId}".`)
    const next = reconcileOutgoing({
      ...doc,
      edges: doc.edges.filter((edge) => edge.id !== edgeId),
    })
    return { doc: checked(next), result: { removed: edgeId } }
  }

  if (name === 'configure_node') {
    const block = nodeOf(doc, stringArg(args, 'nodeId'))
    const plugin = context.registry.get(block.type)
    if (!plugin) throw new ToolRefusal(`The node "${block.id}" has a type this server lacks.`)
    const options = recordArg(args, 'options')
    assertKnownOptions(plugin, 'workflow', options)
    const title = optionalString(args, 'title')
    const next: WorkflowBlock = {
      ...block,
      ...(options ? { options: { ...block.options, ...options } } : {}),
      ...(title ? { title } : {}),
      ...(typeof args.isDisabled === 'boolean' ? { isDisabled: args.isDisabled } : {}),
    }
    const nextDoc = checked({
      ...doc,
      blocks: doc.blocks.map((candidate) => (candidate.id === block.id ? next : candidate)),
    })
    return { doc: nextDoc, result: { nodeId: block.id, issues: await issuesOf(next, context) } }
  }

  throw new ToolRefusal(`There is no tool "${name}".`)
}

export const workflowAdapter: CopilotAdapter<Doc> = {
  surface: 'workflow',
  tools: TOOLS,
  outline(doc) {
    return {
      name: doc.name,
      nodes: doc.blocks.map((block) => ({
        id: block.id,
        type: block.type,
        ...(block.title ? { title: block.title } : {}),
        position: block.graphCoordinates,
        ...(block.options ? { options: block.options } : {}),
        ...(block.conditions ? { conditionIds: block.conditions.map((c) => c.id) } : {}),
        ...(block.isDisabled ? { isDisabled: true } : {}),
      })),
      edges: doc.edges.map((edge) => ({
        id: edge.id,
        from: edge.from.blockId,
        ...(edge.from.conditionId ? { conditionId: edge.from.conditionId } : {}),
        to: edge.to.blockId,
        ...(edge.isAttachment ? { slot: edge.attachmentName } : {}),
      })),
      variables: doc.variables.map((variable) => variable.name),
    }
  },
  apply,
}
