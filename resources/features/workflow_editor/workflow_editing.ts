/**
 * The editing rules of the workflow graph as pure functions over the edited document, in
 * the manner of app/shared/bot/editing.ts: each returns a new document and never touches
 * its input; an operation that changes nothing returns the very same document (so the
 * store records no undo step); nodes that did not change keep their identity (so the
 * memoised canvas nodes do not re-render). Edges and each node's outgoingEdgeId are
 * reconciled after every change of edges.
 */
import { createId } from '#shared/bot/new_bot'
import { omit, round2 } from '#shared/bot/graph'
import { sanitizeVariableName, variableNameProblem } from '#shared/bot/variable_names'
import type {
  Coordinates,
  WorkflowBlock,
  WorkflowCondition,
  WorkflowEdge,
  WorkflowJson,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'

/**
 * The part of a workflow the builder edits, kept in the undo history. Status, activity
 * and publication belong to the server and live beside it.
 */
export type WorkflowDoc = Pick<
  WorkflowJson,
  'name' | 'description' | 'icon' | 'blocks' | 'edges' | 'variables' | 'settings'
>

/** A duplicate lands at x+200, y+100 of its original. */
export const DUPLICATE_OFFSET: Readonly<Coordinates> = { x: 200, y: 100 }

export interface EdgeSource {
  blockId: string
  conditionId?: string
}

function round(coordinates: Coordinates): Coordinates {
  return { x: round2(coordinates.x), y: round2(coordinates.y) }
}

function replaceBlock(
  doc: WorkflowDoc,
  blockId: string,
  fn: (block: WorkflowBlock) => WorkflowBlock
): WorkflowDoc {
  let changed = false
  const blocks = doc.blocks.map((block) => {
    if (block.id !== blockId) return block
    const next = fn(block)
    if (next !== block) changed = true
    return next
  })
  return changed ? { ...doc, blocks } : doc
}

const isFlowEdge = (edge: WorkflowEdge) => !edge.isAttachment

/** An edge of the node's default path (not a branch, not an attachment). */
const isDefaultEdgeOf = (blockId: string) => (edge: WorkflowEdge) =>
  isFlowEdge(edge) && edge.from.blockId === blockId && !edge.from.conditionId

/**
 * Each node's outgoingEdgeId names the first edge of its default path, or is absent. The
 * executor follows every default edge (fan-out); outgoingEdgeId stays for the format.
 */
export function reconcileOutgoing(doc: WorkflowDoc): WorkflowDoc {
  let changed = false
  const blocks = doc.blocks.map((block) => {
    const first = doc.edges.find(isDefaultEdgeOf(block.id))
    if (block.outgoingEdgeId === first?.id) return block
    changed = true
    if (!first) return omit(block, 'outgoingEdgeId')
    return { ...block, outgoingEdgeId: first.id }
  })
  return changed ? { ...doc, blocks } : doc
}

/** Replaces the edge list, then reconciles outgoingEdgeIds. */
function withEdges(doc: WorkflowDoc, edges: WorkflowEdge[]): WorkflowDoc {
  if (edges.length === doc.edges.length && edges.every((edge, i) => edge === doc.edges[i])) {
    return doc
  }
  return reconcileOutgoing({ ...doc, edges })
}

// ---------------------------------------------------------------------------
// Nodes
// ---------------------------------------------------------------------------

/** A node as dropped from the palette: a fresh id, the plugin's defaults, ids for branches. */
export function newNode(
  type: string,
  position: Coordinates,
  init: { options?: Record<string, unknown>; conditions?: Record<string, unknown>[] } = {}
): WorkflowBlock {
  const block: WorkflowBlock = { id: createId(), type, graphCoordinates: round(position) }
  if (init.options && Object.keys(init.options).length > 0) {
    block.options = structuredClone(init.options)
  }
  if (init.conditions && init.conditions.length > 0) {
    block.conditions = init.conditions.map((condition) => ({
      ...structuredClone(condition),
      id: createId(),
    }))
  }
  return block
}

export function addNode(doc: WorkflowDoc, block: WorkflowBlock): WorkflowDoc {
  return { ...doc, blocks: [...doc.blocks, block] }
}

export function moveNodes(
  doc: WorkflowDoc,
  moves: { id: string; position: Coordinates }[]
): WorkflowDoc {
  let next = doc
  for (const { id, position } of moves) {
    const target = round(position)
    next = replaceBlock(next, id, (block) =>
      block.graphCoordinates.x === target.x && block.graphCoordinates.y === target.y
        ? block
        : { ...block, graphCoordinates: { ...block.graphCoordinates, ...target } }
    )
  }
  return next
}

/** Removes nodes with every edge that touches them. */
export function deleteNodes(doc: WorkflowDoc, ids: readonly string[]): WorkflowDoc {
  const gone = new Set(ids.filter((id) => doc.blocks.some((block) => block.id === id)))
  if (gone.size === 0) return doc
  const blocks = doc.blocks.filter((block) => !gone.has(block.id))
  const edges = doc.edges.filter(
    (edge) => !gone.has(edge.from.blockId) && !gone.has(edge.to.blockId)
  )
  return reconcileOutgoing({ ...doc, blocks, edges })
}

/**
 * A copy of a node at x+200, y+100 with new ids (its branches too) and no edges: the
 * original's connections stay the original's.
 */
export function duplicateNode(
  doc: WorkflowDoc,
  blockId: string
): { doc: WorkflowDoc; blockId?: string } {
  const original = doc.blocks.find((block) => block.id === blockId)
  if (!original) return { doc }
  const copy: WorkflowBlock = {
    ...omit(structuredClone(original), 'outgoingEdgeId'),
    id: createId(),
    graphCoordinates: round({
      x: original.graphCoordinates.x + DUPLICATE_OFFSET.x,
      y: original.graphCoordinates.y + DUPLICATE_OFFSET.y,
    }),
  }
  if (copy.conditions) {
    copy.conditions = copy.conditions.map((condition) => ({ ...condition, id: createId() }))
  }
  const index = doc.blocks.indexOf(original)
  const blocks = [...doc.blocks.slice(0, index + 1), copy, ...doc.blocks.slice(index + 1)]
  return { doc: { ...doc, blocks }, blockId: copy.id }
}

/** Disabled nodes stay in the graph; the executor skips them. */
export function setNodeDisabled(doc: WorkflowDoc, blockId: string, disabled: boolean) {
  return replaceBlock(doc, blockId, (block) => {
    if (!!block.isDisabled === disabled) return block
    return disabled ? { ...block, isDisabled: true } : omit(block, 'isDisabled')
  })
}

/** A trigger's pinned sample (docs/workflows.md "Pinned data"); undefined unpins it. */
export function setPinnedData(doc: WorkflowDoc, blockId: string, value: unknown) {
  return replaceBlock(doc, blockId, (block) =>
    value === undefined ? omit(block, 'pinnedData') : { ...block, pinnedData: value }
  )
}

/** A blank title gives the node back its plugin's name. */
export function renameNode(doc: WorkflowDoc, blockId: string, title: string) {
  const clean = title.trim()
  return replaceBlock(doc, blockId, (block) => {
    if ((block.title ?? '') === clean) return block
    return clean ? { ...block, title: clean } : omit(block, 'title')
  })
}

/** The builder's note on a node; blank removes it. */
export function setNodeNotes(doc: WorkflowDoc, blockId: string, notes: string) {
  const clean = notes.trim()
  return replaceBlock(doc, blockId, (block) => {
    if ((block.notes ?? '') === clean) return block
    return clean ? { ...block, notes: clean } : omit(block, 'notes')
  })
}

export function updateNodeOptions(
  doc: WorkflowDoc,
  blockId: string,
  options: Record<string, unknown>
) {
  return replaceBlock(doc, blockId, (block) =>
    block.options === options ? block : { ...block, options }
  )
}

// ---------------------------------------------------------------------------
// Condition branches
// ---------------------------------------------------------------------------

export function addCondition(
  doc: WorkflowDoc,
  blockId: string,
  init: Record<string, unknown> = {},
  max?: number
): { doc: WorkflowDoc; conditionId?: string } {
  const block = doc.blocks.find((candidate) => candidate.id === blockId)
  if (!block) return { doc }
  const conditions = block.conditions ?? []
  if (max !== undefined && conditions.length >= max) return { doc }
  const condition: WorkflowCondition = { ...structuredClone(init), id: createId() }
  return {
    doc: replaceBlock(doc, blockId, (found) => ({
      ...found,
      conditions: [...conditions, condition],
    })),
    conditionId: condition.id,
  }
}

export function updateCondition(
  doc: WorkflowDoc,
  blockId: string,
  conditionId: string,
  value: Record<string, unknown>
) {
  return replaceBlock(doc, blockId, (block) => {
    const conditions = block.conditions ?? []
    if (!conditions.some((condition) => condition.id === conditionId)) return block
    return {
      ...block,
      conditions: conditions.map((condition) =>
        condition.id === conditionId ? { ...value, id: conditionId } : condition
      ),
    }
  })
}

/** Removes a branch and its edges; a node keeps at least `min` branches. */
export function deleteCondition(
  doc: WorkflowDoc,
  blockId: string,
  conditionId: string,
  min = 1
): { doc: WorkflowDoc; refused?: boolean } {
  const block = doc.blocks.find((candidate) => candidate.id === blockId)
  const conditions = block?.conditions ?? []
  if (!block || !conditions.some((condition) => condition.id === conditionId)) return { doc }
  if (conditions.length <= Math.max(1, min)) return { doc, refused: true }
  const next = replaceBlock(doc, blockId, (found) => ({
    ...found,
    conditions: conditions.filter((condition) => condition.id !== conditionId),
  }))
  return {
    doc: withEdges(
      next,
      next.edges.filter(
        (edge) => !(edge.from.blockId === blockId && edge.from.conditionId === conditionId)
      )
    ),
  }
}

// ---------------------------------------------------------------------------
// Edges
// ---------------------------------------------------------------------------

/**
 * Joins a node's default path or one of its branches to another node. A path may lead to
 * several nodes (the executor runs them all and joins them again); the same edge twice
 * and edges to the node itself are refused.
 */
export function connect(
  doc: WorkflowDoc,
  from: EdgeSource,
  toBlockId: string
): { doc: WorkflowDoc; edgeId?: string } {
  if (from.blockId === toBlockId) return { doc }
  const source = doc.blocks.find((block) => block.id === from.blockId)
  if (!source || !doc.blocks.some((block) => block.id === toBlockId)) return { doc }
  if (from.conditionId && !source.conditions?.some((c) => c.id === from.conditionId)) {
    return { doc }
  }
  const exists = doc.edges.some(
    (edge) =>
      isFlowEdge(edge) &&
      edge.from.blockId === from.blockId &&
      (edge.from.conditionId ?? undefined) === (from.conditionId ?? undefined) &&
      edge.to.blockId === toBlockId
  )
  if (exists) return { doc }
  const edge: WorkflowEdge = {
    id: createId(),
    from: from.conditionId
      ? { blockId: from.blockId, conditionId: from.conditionId }
      : { blockId: from.blockId },
    to: { blockId: toBlockId },
  }
  return { doc: withEdges(doc, [...doc.edges, edge]), edgeId: edge.id }
}

/**
 * Plugs a model or tool node into an agent's slot: an attachment edge from the agent to
 * the attached node. A slot taking one node (model) lets go of its previous one.
 */
export function attach(
  doc: WorkflowDoc,
  agentId: string,
  slot: { name: string; multiple: boolean },
  attachedId: string
): { doc: WorkflowDoc; edgeId?: string } {
  if (agentId === attachedId) return { doc }
  if (!doc.blocks.some((block) => block.id === agentId)) return { doc }
  if (!doc.blocks.some((block) => block.id === attachedId)) return { doc }
  const inSlot = (edge: WorkflowEdge) =>
    edge.isAttachment === true && edge.from.blockId === agentId && edge.attachmentName === slot.name
  if (doc.edges.some((edge) => inSlot(edge) && edge.to.blockId === attachedId)) return { doc }
  const edge: WorkflowEdge = {
    id: createId(),
    from: { blockId: agentId },
    to: { blockId: attachedId },
    isAttachment: true,
    attachmentName: slot.name,
  }
  const kept = slot.multiple ? doc.edges : doc.edges.filter((existing) => !inSlot(existing))
  return { doc: withEdges(doc, [...kept, edge]), edgeId: edge.id }
}

export function deleteEdges(doc: WorkflowDoc, ids: readonly string[]): WorkflowDoc {
  const gone = new Set(ids)
  return withEdges(
    doc,
    doc.edges.filter((edge) => !gone.has(edge.id))
  )
}

// ---------------------------------------------------------------------------
// Variables and settings
// ---------------------------------------------------------------------------

export type VariableNameError = 'empty' | 'taken' | 'invalid'

/** Why a name cannot be given to a variable (another one's name, or against the rule). */
export function variableNameError(
  variables: readonly WorkflowVariable[],
  name: string,
  exceptId?: string
): VariableNameError | undefined {
  const clean = name.trim()
  if (clean === '') return 'empty'
  if (variableNameProblem(clean)) return 'invalid'
  if (variables.some((variable) => variable.name === clean && variable.id !== exceptId)) {
    return 'taken'
  }
  return undefined
}

export function addVariable(
  doc: WorkflowDoc,
  name: string
): { doc: WorkflowDoc; variable?: WorkflowVariable } {
  const clean = sanitizeVariableName(name).trim()
  if (variableNameError(doc.variables, clean)) return { doc }
  const variable: WorkflowVariable = { id: `v${createId()}`, name: clean }
  return { doc: { ...doc, variables: [...doc.variables, variable] }, variable }
}

export function renameVariable(doc: WorkflowDoc, variableId: string, name: string) {
  const clean = sanitizeVariableName(name).trim()
  if (variableNameError(doc.variables, clean, variableId)) return doc
  let changed = false
  const variables = doc.variables.map((variable) => {
    if (variable.id !== variableId || variable.name === clean) return variable
    changed = true
    return { ...variable, name: clean }
  })
  return changed ? { ...doc, variables } : doc
}

/** Nodes naming the variable keep its id: undo brings it back whole. */
export function removeVariable(doc: WorkflowDoc, variableId: string) {
  if (!doc.variables.some((variable) => variable.id === variableId)) return doc
  return { ...doc, variables: doc.variables.filter((variable) => variable.id !== variableId) }
}

export function updateSettings(
  doc: WorkflowDoc,
  fn: (settings: WorkflowSettings) => WorkflowSettings
) {
  const settings = fn(doc.settings)
  return settings === doc.settings ? doc : { ...doc, settings }
}
