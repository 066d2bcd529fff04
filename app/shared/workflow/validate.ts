/**
 * The gates workflow JSON passes: importWorkflow for files and API bodies (anything may
 * arrive), validateWorkflow before every save, compileExecutable on publish. Pure and
 * dependency-free, so that the editor can run the very same checks before it sends
 * anything; plugin knowledge (categories, wait nodes) comes in as functions.
 */
import { isPlainObject, mapStrings, parsedImport, round2 } from '../bot/graph.js'
import { freeVariableName, variableNameProblem } from '../bot/variable_names.js'
import {
  checkCoordinates,
  checkVariable,
  isFiniteNumber,
  uniqueIdCheck,
} from '../bot/graph_checks.js'
import {
  DEFAULT_WORKFLOW_NAME,
  defaultWorkflowSettings,
  type ExecutableWorkflow,
  type WorkflowBlock,
  type WorkflowEdge,
  type WorkflowJson,
  type WorkflowSettings,
  type WorkflowVariable,
} from './types.js'

export const WORKFLOW_PARSE_ERROR_MESSAGE =
  "Failed to parse the file. Are you sure it's a workflow?"
export const NEEDS_ONE_TRIGGER_MESSAGE = 'A workflow needs one trigger'

/** The only error importWorkflow throws; its message is shown to builders as is. */
export class WorkflowParseError extends Error {
  readonly status = 400
  readonly code = 'E_WORKFLOW_PARSE'

  constructor(options?: { cause?: unknown }) {
    super(WORKFLOW_PARSE_ERROR_MESSAGE, options)
    this.name = 'WorkflowParseError'
  }
}

/** Publishing refused: the graph cannot run (no trigger, or several). */
export class WorkflowCompileError extends Error {
  readonly status = 422
  readonly code = 'E_WORKFLOW_COMPILE'

  constructor(
    message: string,
    readonly triggerCount: number
  ) {
    super(message)
    this.name = 'WorkflowCompileError'
  }
}

/** attachmentName of the edge that plugs the (single) model into an LLM agent node. */
export const MODEL_ATTACHMENT = 'model'
/** attachmentName of the edges that plug tools into an LLM agent node (any number). */
export const TOOLS_ATTACHMENT = 'tools'

/**
 * Bounds of schedule options (plus the minute of an hourly
 * or daily schedule), by option name. They are checked on any node whose options hold
 * these names, so the schedule trigger gets them without the core naming it.
 */
export const SCHEDULE_BOUNDS = {
  minutesInterval: { min: 1, max: 59 },
  hour: { min: 0, max: 23 },
  minute: { min: 0, max: 59 },
  dayOfWeek: { min: 0, max: 6 },
  dayOfMonth: { min: 1, max: 31 },
} as const

export const LOG_LEVELS = ['info', 'error', 'debug'] as const
export const WORKFLOW_NAME_MAX_LENGTH = 255
/** A node's notes (n8n keeps notes of any length; a few pages is plenty). */
export const NOTES_MAX_LENGTH = 10_000

/** A name cut to the stored length, never in the middle of a character. */
export function clampWorkflowName(name: string) {
  return Array.from(name).slice(0, WORKFLOW_NAME_MAX_LENGTH).join('')
}

// ---------------------------------------------------------------------------
// Validation before save
// ---------------------------------------------------------------------------

export interface WorkflowValidationError {
  /** Dotted path into the workflow: 'blocks.2.options.hour'. */
  path: string
  message: string
}

export type WorkflowValidationResult =
  { ok: true; workflow: WorkflowJson } | { ok: false; errors: WorkflowValidationError[] }

/** "{{Minutes}}" is resolved when the node runs (numbers may hold a variable). */
const isVariablePlaceholder = (value: unknown) =>
  typeof value === 'string' && /{{[^{}]+}}/.test(value)

function numericValue(value: unknown): number | undefined {
  if (isFiniteNumber(value)) return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value)
  }
  return undefined
}

function checkSettings(settings: Record<string, any>, report: (p: string, m: string) => void) {
  const wholeAtLeast = (path: string, value: unknown, min: number) => {
    if (value === undefined || value === null) return
    if (!Number.isInteger(value) || (value as number) < min) {
      report(path, `Must be a whole number of at least ${min}`)
    }
  }
  const numberAtLeast = (path: string, value: unknown, min: number) => {
    if (value === undefined || value === null) return
    if (!isFiniteNumber(value) || value < min) report(path, `Must be a number of at least ${min}`)
  }
  const { errorHandling, logging } = settings
  if (errorHandling !== undefined && errorHandling !== null) {
    if (!isPlainObject(errorHandling)) {
      report('settings.errorHandling', 'errorHandling must be an object')
    } else {
      wholeAtLeast('settings.errorHandling.retryCount', errorHandling.retryCount, 0)
      numberAtLeast('settings.errorHandling.retryDelay', errorHandling.retryDelay, 0)
      const notify = errorHandling.failureNotification
      if (notify !== undefined && notify !== null && typeof notify !== 'boolean') {
        report('settings.errorHandling.failureNotification', 'Must be true or false')
      }
    }
  }
  numberAtLeast('settings.timeout', settings.timeout, 1)
  wholeAtLeast('settings.concurrency', settings.concurrency, 1)
  if (logging !== undefined && logging !== null) {
    if (!isPlainObject(logging)) {
      report('settings.logging', 'logging must be an object')
    } else {
      if (
        logging.level !== undefined &&
        !(LOG_LEVELS as readonly unknown[]).includes(logging.level)
      ) {
        report('settings.logging.level', `Level must be one of ${LOG_LEVELS.join(', ')}`)
      }
      wholeAtLeast('settings.logging.retentionDays', logging.retentionDays, 1)
    }
  }
}

function checkScheduleBounds(
  path: string,
  options: Record<string, unknown>,
  report: (p: string, m: string) => void
) {
  for (const [key, { min, max }] of Object.entries(SCHEDULE_BOUNDS)) {
    const raw = options[key]
    if (raw === undefined || raw === null || raw === '') continue
    const values = Array.isArray(raw) ? raw : [raw]
    for (const value of values) {
      if (isVariablePlaceholder(value)) continue
      const number = numericValue(value)
      if (number === undefined || !Number.isInteger(number) || number < min || number > max) {
        report(`${path}.${key}`, `${key} must be a whole number from ${min} to ${max}`)
        break
      }
    }
  }
}

/**
 * Structural checks before a save: the shape of the format, ids unique across nodes,
 * conditions, edges and variables, edges joining existing nodes and conditions, each
 * node's outgoingEdgeId naming an edge that leaves it, at most one Model attachment per
 * node, schedule bounds, variable names per the rule and sane settings. Node options are
 * not checked here beyond the schedule bounds: each plugin's validator does that.
 * On success returns a copy with coordinates rounded to 2 decimals.
 */
export function validateWorkflow(raw: unknown): WorkflowValidationResult {
  const errors: WorkflowValidationError[] = []
  const report = (path: string, message: string) => errors.push({ path, message })

  if (!isPlainObject(raw)) {
    report('', 'Workflow content must be an object')
    return { ok: false, errors }
  }
  if (typeof raw.name !== 'string' || raw.name.trim() === '') {
    report('name', 'Name must be a non-empty text')
  } else if (Array.from(raw.name).length > WORKFLOW_NAME_MAX_LENGTH) {
    report('name', `Name must be at most ${WORKFLOW_NAME_MAX_LENGTH} characters long`)
  }
  for (const key of ['description', 'icon']) {
    if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== 'string') {
      report(key, `${key} must be a text`)
    }
  }
  for (const key of ['blocks', 'edges', 'variables']) {
    if (!Array.isArray(raw[key])) report(key, `${key} must be a list`)
  }
  if (!isPlainObject(raw.settings)) report('settings', 'settings must be an object')
  if (errors.length > 0) return { ok: false, errors }

  const checkId = uniqueIdCheck(report)

  const conditionsOf = new Map<string, Set<string>>()
  const outgoing: { path: string; blockId: string; edgeId: unknown }[] = []

  raw.blocks.forEach((block: unknown, b: number) => {
    const path = `blocks.${b}`
    if (!isPlainObject(block)) return report(path, 'Node must be an object')
    if (!checkId(path, block.id)) return
    const conditionIds = new Set<string>()
    conditionsOf.set(block.id, conditionIds)
    if (typeof block.type !== 'string' || block.type.trim() === '') {
      report(`${path}.type`, 'Type must be a non-empty text')
    }
    if (block.title !== undefined && block.title !== null && typeof block.title !== 'string') {
      report(`${path}.title`, 'Title must be a text')
    }
    checkCoordinates(report, `${path}.graphCoordinates`, block.graphCoordinates)
    if (block.isDisabled !== undefined && typeof block.isDisabled !== 'boolean') {
      report(`${path}.isDisabled`, 'Must be true or false')
    }
    if (block.notes !== undefined && block.notes !== null) {
      if (typeof block.notes !== 'string') report(`${path}.notes`, 'Notes must be a text')
      else if (block.notes.length > NOTES_MAX_LENGTH) {
        report(`${path}.notes`, `Notes must be at most ${NOTES_MAX_LENGTH} characters long`)
      }
    }
    if (block.options !== undefined && block.options !== null) {
      if (!isPlainObject(block.options)) report(`${path}.options`, 'options must be an object')
      else checkScheduleBounds(`${path}.options`, block.options, report)
    }
    if (block.outgoingEdgeId !== undefined && block.outgoingEdgeId !== null) {
      outgoing.push({
        path: `${path}.outgoingEdgeId`,
        blockId: block.id,
        edgeId: block.outgoingEdgeId,
      })
    }
    if (block.conditions === undefined || block.conditions === null) return
    if (!Array.isArray(block.conditions)) {
      return report(`${path}.conditions`, 'conditions must be a list')
    }
    block.conditions.forEach((condition: unknown, c: number) => {
      const conditionPath = `${path}.conditions.${c}`
      if (!isPlainObject(condition)) return report(conditionPath, 'Condition must be an object')
      if (checkId(conditionPath, condition.id)) conditionIds.add(condition.id)
    })
  })

  const edgeSources = new Map<string, string>()
  const modelAttachments = new Set<string>()
  raw.edges.forEach((edge: unknown, e: number) => {
    const path = `edges.${e}`
    if (!isPlainObject(edge)) return report(path, 'Edge must be an object')
    const hasId = checkId(path, edge.id)
    const { from, to } = edge
    let fromBlock: string | undefined
    if (!isPlainObject(from)) {
      report(`${path}.from`, 'from must be an object')
    } else if (typeof from.blockId !== 'string' || !conditionsOf.has(from.blockId)) {
      report(`${path}.from.blockId`, `No node has the id "${String(from.blockId)}"`)
    } else if (
      from.conditionId !== undefined &&
      from.conditionId !== null &&
      !conditionsOf.get(from.blockId)!.has(from.conditionId)
    ) {
      report(
        `${path}.from.conditionId`,
        `No condition of the node has the id "${String(from.conditionId)}"`
      )
    } else {
      fromBlock = from.blockId
    }
    if (!isPlainObject(to)) {
      report(`${path}.to`, 'to must be an object')
    } else if (typeof to.blockId !== 'string' || !conditionsOf.has(to.blockId)) {
      report(`${path}.to.blockId`, `No node has the id "${String(to.blockId)}"`)
    }
    if (edge.isAttachment !== undefined && typeof edge.isAttachment !== 'boolean') {
      report(`${path}.isAttachment`, 'Must be true or false')
    }
    if (
      edge.attachmentName !== undefined &&
      edge.attachmentName !== null &&
      typeof edge.attachmentName !== 'string'
    ) {
      report(`${path}.attachmentName`, 'attachmentName must be a text')
    }
    if (fromBlock && edge.isAttachment === true && edge.attachmentName === MODEL_ATTACHMENT) {
      if (modelAttachments.has(fromBlock)) {
        report(path, 'An LLM agent node takes a single Model attachment')
      }
      modelAttachments.add(fromBlock)
    }
    if (hasId && fromBlock) edgeSources.set(edge.id as string, fromBlock)
  })
  for (const { path, blockId, edgeId } of outgoing) {
    if (typeof edgeId !== 'string' || edgeSources.get(edgeId) !== blockId) {
      report(path, `No edge "${String(edgeId)}" leaves from this node`)
    }
  }

  raw.variables.forEach((variable: unknown, v: number) => {
    const path = `variables.${v}`
    checkVariable(report, checkId, path, variable)
  })

  checkSettings(raw.settings, report)

  if (errors.length > 0) return { ok: false, errors }
  const valid = raw as unknown as WorkflowJson
  return {
    ok: true,
    workflow: {
      ...valid,
      blocks: valid.blocks.map((block) => ({
        ...block,
        graphCoordinates: {
          ...block.graphCoordinates,
          x: round2(block.graphCoordinates.x),
          y: round2(block.graphCoordinates.y),
        },
      })),
    },
  }
}

// ---------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------

/** A copy without the key (absent rather than undefined keeps the JSON tidy). */
function omitPinned(block: WorkflowBlock): WorkflowBlock {
  if (block.pinnedData === undefined && !('pinnedData' in block)) return block
  const copy = { ...block }
  delete copy.pinnedData
  return copy
}

function withoutOutgoingEdge(block: WorkflowBlock): WorkflowBlock {
  const copy = { ...block }
  delete copy.outgoingEdgeId
  return copy
}

/** Exports are sometimes wrapped: {workflow: {...}}. */
function unwrap(value: unknown): unknown {
  if (isPlainObject(value) && !Array.isArray(value.blocks) && isPlainObject(value.workflow)) {
    return value.workflow
  }
  return value
}

/**
 * The least a value must have to be taken for a workflow: an object with a `blocks` list
 * of objects, each with a text id and a text type; `edges` and `variables`, when present,
 * lists. Anything else is refused; the rest is repaired here or reported on save.
 */
function isPlausibleWorkflow(value: unknown): value is Record<string, any> {
  if (!isPlainObject(value) || !Array.isArray(value.blocks)) return false
  for (const key of ['edges', 'variables']) {
    if (value[key] !== undefined && value[key] !== null && !Array.isArray(value[key])) return false
  }
  if (value.settings !== undefined && value.settings !== null && !isPlainObject(value.settings)) {
    return false
  }
  return value.blocks.every(
    (block: unknown) =>
      isPlainObject(block) && typeof block.id === 'string' && typeof block.type === 'string'
  )
}

/** Settings of the file over the defaults, one level deep (errorHandling, logging). */
export function withDefaultSettings(settings: unknown): WorkflowSettings {
  const defaults = defaultWorkflowSettings()
  if (!isPlainObject(settings)) return defaults
  const merged: Record<string, unknown> = { ...defaults, ...settings }
  for (const key of ['errorHandling', 'logging'] as const) {
    merged[key] = isPlainObject(settings[key])
      ? { ...defaults[key], ...settings[key] }
      : defaults[key]
  }
  return merged as WorkflowSettings
}

/**
 * Names of other tools that our rule refuses are sanitized (made unique with " 2", " 3"...)
 * and the {{Old name}} references in nodes rewritten, so the imported workflow saves and
 * still runs the same.
 */
function repairVariableNames(variables: WorkflowVariable[], blocks: WorkflowBlock[]) {
  const renames = new Map<string, string>()
  const taken = new Set(variables.filter((v) => !variableNameProblem(v.name)).map((v) => v.name))
  const repaired = variables.map((variable) => {
    if (!isPlainObject(variable) || !variableNameProblem(variable.name)) return variable
    const name = freeVariableName(variable.name, taken)
    if (typeof variable.name === 'string') renames.set(variable.name, name)
    return { ...variable, name }
  })
  if (renames.size === 0) return { variables: repaired, blocks }
  const rewrite = (text: string) =>
    text.includes('{{')
      ? text.replace(/{{([^{}]+)}}/g, (match, name: string) =>
          renames.has(name) ? `{{${renames.get(name)}}}` : match
        )
      : text
  return { variables: repaired, blocks: mapStrings(blocks, rewrite) as WorkflowBlock[] }
}

/**
 * A workflow file or API body as workflow JSON: an object, its JSON text, or either
 * wrapped in {workflow}. Defaults are filled (name, settings, coordinates, empty lists),
 * edges that point at missing nodes or conditions are dropped with the outgoingEdgeIds
 * naming them, and unknown fields are kept. Server-owned fields (status, isActive,
 * executableWorkflow, workspaceId) are left to the caller, which decides what to keep.
 * Throws WorkflowParseError for anything that is not a workflow.
 */
export function importWorkflow(raw: unknown): WorkflowJson {
  const value = unwrap(parsedImport(raw, (cause) => new WorkflowParseError({ cause })))
  if (!isPlausibleWorkflow(value)) throw new WorkflowParseError()

  const conditionsOf = new Map<string, Set<string>>()
  const blocks: WorkflowBlock[] = value.blocks.map((block: Record<string, any>) => {
    const conditions = Array.isArray(block.conditions) ? block.conditions : undefined
    const conditionIds = (conditions ?? [])
      .filter(isPlainObject)
      .map((condition: Record<string, unknown>) => condition.id)
      .filter((id: unknown): id is string => typeof id === 'string')
    conditionsOf.set(block.id, new Set<string>(conditionIds))
    const coordinates = isPlainObject(block.graphCoordinates) ? block.graphCoordinates : {}
    return {
      ...block,
      graphCoordinates: {
        ...coordinates,
        x: isFiniteNumber(coordinates.x) ? coordinates.x : 0,
        y: isFiniteNumber(coordinates.y) ? coordinates.y : 0,
      },
    }
  })

  const joins = (edge: unknown): edge is WorkflowEdge => {
    if (!isPlainObject(edge) || !isPlainObject(edge.from) || !isPlainObject(edge.to)) return false
    const conditions = conditionsOf.get(edge.from.blockId)
    if (!conditions || !conditionsOf.has(edge.to.blockId)) return false
    const conditionId = edge.from.conditionId
    return conditionId === undefined || conditionId === null || conditions.has(conditionId)
  }
  const edges: WorkflowEdge[] = (value.edges ?? []).filter(joins)
  const edgeSources = new Map(edges.map((edge) => [edge.id, edge.from.blockId]))
  const linked = blocks.map((block) => {
    if (block.outgoingEdgeId === undefined || block.outgoingEdgeId === null) return block
    if (edgeSources.get(block.outgoingEdgeId) === block.id) return block
    return withoutOutgoingEdge(block)
  })

  const repaired = repairVariableNames(
    Array.isArray(value.variables) ? value.variables : [],
    linked
  )
  const name =
    typeof value.name === 'string' && value.name.trim()
      ? clampWorkflowName(value.name.trim())
      : DEFAULT_WORKFLOW_NAME
  return {
    ...value,
    name,
    description: typeof value.description === 'string' ? value.description : null,
    icon: typeof value.icon === 'string' ? value.icon : null,
    version: Number.isInteger(value.version) && value.version >= 1 ? value.version : 1,
    blocks: repaired.blocks,
    edges,
    variables: repaired.variables,
    settings: withDefaultSettings(value.settings),
  }
}

// ---------------------------------------------------------------------------
// Publish
// ---------------------------------------------------------------------------

/**
 * What the executor runs: the nodes and the edges between them, the one enabled trigger to
 * start from (`categoryOf` tells a node type's plugin category) and the nodes that park a
 * run (`isWaitNode`, given by the caller from the plugin manifests). Disabled flow nodes
 * stay, flagged: the executor skips them and the run goes on through their main output
 * (docs/workflows.md "Disabled nodes"). Disabled triggers never run and disabled
 * attachments plug nothing in, so they are left out with their edges.
 * Throws WorkflowCompileError when there is no enabled trigger or more than one.
 */
export function compileExecutable(
  workflow: Pick<WorkflowJson, 'blocks' | 'edges'>,
  categoryOf: (type: string) => string | undefined,
  isWaitNode: (block: WorkflowBlock) => boolean = () => false
): ExecutableWorkflow {
  const enabled = workflow.blocks.filter((block) => block.isDisabled !== true)
  const triggers = enabled.filter((block) => categoryOf(block.type) === 'trigger')
  if (triggers.length !== 1) {
    throw new WorkflowCompileError(NEEDS_ONE_TRIGGER_MESSAGE, triggers.length)
  }
  const attachedIds = new Set(
    workflow.edges.filter((edge) => edge.isAttachment === true).map((edge) => edge.to.blockId)
  )
  const kept = workflow.blocks.filter(
    (block) =>
      block.isDisabled !== true ||
      (categoryOf(block.type) !== 'trigger' && !attachedIds.has(block.id))
  )
  const keptIds = new Set(kept.map((block) => block.id))
  const edges = workflow.edges.filter(
    (edge) => keptIds.has(edge.from.blockId) && keptIds.has(edge.to.blockId)
  )
  const edgeIds = new Set(edges.map((edge) => edge.id))
  const blocks = kept.map((block) => {
    // Pinned samples are for test runs of the draft: live runs take the real event.
    const live = omitPinned(block)
    if (!live.outgoingEdgeId || edgeIds.has(live.outgoingEdgeId)) return live
    // Its edge led to a node left out: the executor must not look for it.
    return withoutOutgoingEdge(live)
  })
  return {
    blocks,
    edges,
    root_block: triggers[0].id,
    wait_blocks: enabled.filter((block) => isWaitNode(block)).map((block) => block.id),
  }
}

/**
 * "Test this step" (docs/workflows.md): the executable cut down to the node and what leads
 * to it (its upstream through flow edges, plus what those nodes have plugged in), so a run
 * stops once the node has run. Null when the node is not reached from the trigger.
 */
export function upstreamExecutable(
  executable: ExecutableWorkflow,
  nodeId: string
): ExecutableWorkflow | null {
  const flow = executable.edges.filter((edge) => edge.isAttachment !== true)
  const kept = new Set<string>()
  const pending = [nodeId]
  while (pending.length > 0) {
    const id = pending.pop()!
    if (kept.has(id) || !executable.blocks.some((block) => block.id === id)) continue
    kept.add(id)
    for (const edge of flow) if (edge.to.blockId === id) pending.push(edge.from.blockId)
  }
  if (!kept.has(nodeId) || !kept.has(executable.root_block)) return null
  for (const edge of executable.edges) {
    if (edge.isAttachment === true && kept.has(edge.from.blockId)) kept.add(edge.to.blockId)
  }
  const edges = executable.edges.filter(
    (edge) => kept.has(edge.from.blockId) && kept.has(edge.to.blockId)
  )
  const edgeIds = new Set(edges.map((edge) => edge.id))
  return {
    ...executable,
    blocks: executable.blocks
      .filter((block) => kept.has(block.id))
      .map((block) =>
        !block.outgoingEdgeId || edgeIds.has(block.outgoingEdgeId)
          ? block
          : withoutOutgoingEdge(block)
      ),
    edges,
    wait_blocks: executable.wait_blocks.filter((id) => kept.has(id)),
  }
}

/** The node types a workflow uses (enabled ones only with `enabledOnly`). */
export function nodeTypesOf(
  workflow: Pick<WorkflowJson, 'blocks'>,
  options: { enabledOnly?: boolean } = {}
): string[] {
  const blocks = options.enabledOnly
    ? workflow.blocks.filter((block) => block.isDisabled !== true)
    : workflow.blocks
  return [...new Set(blocks.map((block) => block.type))]
}
