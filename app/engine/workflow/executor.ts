import { evaluateCondition } from '#engine/bot/conditions'
import type { LogEntry, LogStatus } from '#plugins/define_plugin'
import type { ConditionContent } from '#shared/bot/types'
import type {
  NodeRunStatus,
  RunTrigger,
  WebhookResponse,
  WorkflowBlock,
  WorkflowEdge,
} from '#shared/workflow/types'
import { WorkflowGraph } from './graph.js'
import type { WorkflowNodeResult } from './node_context.js'
import type {
  ExecutorEvent,
  ExecutorPorts,
  ExecutorWorkflow,
  NodeEvent,
  NodeRunOutcome,
  RunVariable,
} from './ports.js'
import { referenceVariables, resolveReference } from './references.js'
import { DEFAULT_LOOP_MAX_ITERATIONS } from '#sdk/loops'
import { STATE_VERSION, type Activation, type ParkedNode, type RunState } from './state.js'

/**
 * The workflow executor (app/engine/workflow/README.md, README.md beside this file). Pure: it walks the
 * published graph from the trigger, runs each node through the ports, and reports what
 * happened as events and a serialisable state. The caller persists, schedules and notifies.
 */

/**
 * Node runs per run (all resumes together) before the run counts as looping. Each loop
 * iteration (a result with `iteration`) adds one run of every node: a loop over a long list
 * is bounded by LOOP_MAX_ITERATIONS instead.
 */
export const MAX_NODE_VISITS = 1000
export const MAX_RETRIES = 10
export const MAX_RETRY_DELAY_MS = 10 * 60_000

/** Texts of the run's own errors (node errors come from the runners). */
export const RUN_ERRORS = {
  timedOut: 'Run timed out',
  noTrigger: 'The workflow has no trigger node to start from',
  loops: (visits: number) => `Stopped after ${visits} node runs: the workflow loops`,
  iterations: (max: number) =>
    `Stopped after ${max} loop iterations in this run (LOOP_MAX_ITERATIONS)`,
  unknownNode: (id: string) => `Node ${id} is not in the workflow`,
  resumed: 'Resumed',
  retry: (attempt: number, of: number) => `Retry ${attempt} of ${of}`,
  waitDone: 'The wait time has already passed',
  pinned: 'Pinned sample data used (test run)',
}

export type ExecutionStatus = 'success' | 'error' | 'waiting' | 'interrupted'

export interface ExecutionResult {
  /** interrupted: the interrupt signal stopped it; go on later with proceed(state). */
  status: ExecutionStatus
  state: RunState
  /** The output of the node that finished last. */
  output?: unknown
  error?: string
  /** The earliest timer of the parked nodes. */
  resumeAt?: string
  waitingForWebhook?: { nodeId: string }
  response?: WebhookResponse
  /** Node and response events of this call, in order (checkpoints are only recorded). */
  events: ExecutorEvent[]
}

export interface ExecutionOptions {
  /** The run's timeout: the run stops between nodes with the error RUN_ERRORS.timedOut. */
  signal?: AbortSignal
  /** The process stops (worker shutdown): the state is kept for proceed(). */
  interrupt?: AbortSignal
  /**
   * What nodes get as their signal: aborted once either of the two is. Without it, one is
   * made with AbortSignal.any (the caller may have a cheaper one, see run_workflow.ts).
   */
  nodeSignal?: AbortSignal
}

/** The signal of nodes when nothing can abort the run: one for all (it never aborts). */
const NEVER = new AbortController().signal

export interface ExecutorOptions {
  maxNodeVisits?: number
  /** Loop iterations a run may start, all resumes together (LOOP_MAX_ITERATIONS). */
  maxIterations?: number
  /**
   * The graph of `workflow.executable`, built earlier: a graph only answers questions about
   * the published workflow, so callers may keep one per published version and share it.
   */
  graph?: WorkflowGraph
}

export class NotWaitingError extends Error {
  constructor(nodeId?: string) {
    super(nodeId ? `The run is not waiting for node ${nodeId}` : 'The run has no wait that is due')
    this.name = 'NotWaitingError'
  }
}

function entry(status: LogStatus, description: string, details?: unknown): LogEntry {
  return details === undefined ? { status, description } : { status, description, details }
}

function clamp(value: unknown, min: number, max: number, fallback: number) {
  const number = Number(value)
  if (!Number.isFinite(number)) return fallback
  return Math.min(Math.max(number, min), max)
}

function validDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** One call of start/resume/proceed: the state it works on and what it reports. */
class Step {
  readonly events: ExecutorEvent[] = []
  readonly nodeSignal: AbortSignal

  constructor(
    readonly executor: WorkflowExecutor,
    readonly state: RunState,
    readonly options: ExecutionOptions
  ) {
    const signals = [options.signal, options.interrupt].filter(Boolean) as AbortSignal[]
    this.nodeSignal =
      options.nodeSignal ??
      (signals.length === 0 ? NEVER : signals.length === 1 ? signals[0] : AbortSignal.any(signals))
  }

  get ports() {
    return this.executor.ports
  }

  get graph() {
    return this.executor.graph
  }

  get timedOut() {
    return !!this.options.signal?.aborted
  }

  get interrupted() {
    return !!this.options.interrupt?.aborted
  }

  /** A node's title, else its type's name (not the stored type: 'Webhook' is an HTTP request). */
  private labelOf(block: WorkflowBlock) {
    return block.title?.trim() || this.ports.typeName?.(block.type) || block.type
  }

  now() {
    return this.ports.now()
  }

  async record(event: ExecutorEvent) {
    if (event.type !== 'checkpoint') this.events.push(event)
    await this.ports.record(event)
  }

  async nodeEvent(
    block: WorkflowBlock,
    executionId: string,
    status: NodeRunStatus,
    fields: Partial<NodeEvent> & { startedAt: string }
  ) {
    const event: NodeEvent = {
      type: 'node',
      executionId,
      nodeId: block.id,
      nodeType: block.type,
      status,
      attempts: 0,
      ...fields,
    }
    if (block.title) event.title = block.title
    if (status !== 'running' && status !== 'waiting') {
      const finished = this.now()
      event.finishedAt = finished.toISOString()
      event.durationMs = Math.max(0, finished.getTime() - new Date(fields.startedAt).getTime())
    }
    await this.record(event)
  }

  // -- graph walk -----------------------------------------------------------

  arrive(edge: WorkflowEdge, from: string, output: unknown) {
    const target = edge.to.blockId
    const waiting = this.state.queue.find((activation) => activation.nodeId === target)
    if (!waiting) {
      this.state.queue.push({ nodeId: target, arrivals: [{ from, output }] })
      return
    }
    const same = waiting.arrivals.find((arrival) => arrival.from === from)
    if (same) same.output = output
    else waiting.arrivals.push({ from, output })
  }

  /** A node joins its predecessors once none of the other reached nodes can still lead to it. */
  nextReady(): number {
    const { queue, parked } = this.state
    return queue.findIndex(
      (candidate) =>
        !queue.some(
          (other) => other !== candidate && this.graph.canReach(other.nodeId, candidate.nodeId)
        ) &&
        !parked.some(
          (node) =>
            node.nodeId !== candidate.nodeId && this.graph.canReach(node.nodeId, candidate.nodeId)
        )
    )
  }

  inputOf(activation: Activation): unknown {
    if (activation.arrivals.length === 1) return activation.arrivals[0].output
    return Object.fromEntries(
      activation.arrivals.map((arrival) => [arrival.from ?? '$trigger', arrival.output])
    )
  }

  complete(block: WorkflowBlock, output: unknown, edges: WorkflowEdge[]) {
    this.state.outputs[block.id] = output
    this.state.lastNodeId = block.id
    for (const edge of edges) this.arrive(edge, block.id, output)
  }

  remember(nodeId: string, memory: unknown) {
    if (memory !== undefined) (this.state.memory ??= {})[nodeId] = memory
    else if (this.state.memory) delete this.state.memory[nodeId]
  }

  applyVariables(changes: NodeRunOutcome['variablesSet']) {
    for (const change of changes) {
      const variable = this.state.variables.find((v) => v.id === change.id)
      if (variable) variable.value = change.value
    }
  }

  // -- results --------------------------------------------------------------

  result(status: ExecutionStatus, error?: string): ExecutionResult {
    const { state } = this
    const result: ExecutionResult = { status, state, events: this.events }
    if (state.lastNodeId !== undefined) result.output = state.outputs[state.lastNodeId]
    if (error) result.error = error
    if (state.response) result.response = state.response
    if (status === 'waiting') {
      const timers = state.parked
        .map((node) => node.resumeAt)
        .filter((at): at is string => !!at)
        .sort()
      if (timers.length > 0) result.resumeAt = timers[0]
      const hook = state.parked.find((node) => node.webhook)
      if (hook) result.waitingForWebhook = { nodeId: hook.nodeId }
    }
    return result
  }

  // -- running --------------------------------------------------------------

  async drain(): Promise<ExecutionResult> {
    const nodes = Math.max(this.graph.blockList.length, 1)
    while (true) {
      if (this.timedOut) return this.result('error', RUN_ERRORS.timedOut)
      if (this.interrupted) return this.result('interrupted')
      const index = this.nextReady()
      if (index < 0) break
      const limit = this.executor.maxNodeVisits + (this.state.iterations ?? 0) * nodes
      if (this.state.visits >= limit) {
        return this.result('error', RUN_ERRORS.loops(this.executor.maxNodeVisits))
      }
      const [activation] = this.state.queue.splice(index, 1)
      this.state.visits++
      const stopped = await this.run(activation)
      if (stopped) return stopped
      await this.record({ type: 'checkpoint', state: this.state })
    }
    return this.result(this.state.parked.length > 0 ? 'waiting' : 'success')
  }

  async run(activation: Activation): Promise<ExecutionResult | undefined> {
    const block = this.graph.blocks.get(activation.nodeId)
    if (!block) return this.result('error', RUN_ERRORS.unknownNode(activation.nodeId))
    const input = this.inputOf(activation)
    const looped = activation.arrivals.some(
      (arrival) => arrival.from !== null && this.graph.closesLoop(arrival.from, block.id)
    )
    const executionId = this.ports.newId()
    const startedAt = this.now().toISOString()

    if (block.isDisabled) {
      await this.nodeEvent(block, executionId, 'skipped', { startedAt, input, output: input })
      this.complete(block, input, this.graph.defaultEdges(block))
      return undefined
    }

    // Only a test run's executable carries pinned data (compileExecutable drops it): the
    // trigger is not asked, its sample stands for what the real event would have brought.
    if (block.pinnedData !== undefined) {
      const output = block.pinnedData
      const logs = [entry('info', RUN_ERRORS.pinned)]
      await this.nodeEvent(block, executionId, 'success', {
        startedAt,
        input,
        output,
        logs,
        attempts: 1,
      })
      this.complete(block, output, this.graph.defaultEdges(block))
      return undefined
    }

    await this.nodeEvent(block, executionId, 'running', { startedAt, input, attempts: 1 })

    const handling = this.executor.workflow.settings?.errorHandling ?? {}
    const retries = Math.floor(clamp(handling.retryCount, 0, MAX_RETRIES, 0))
    const delay = clamp(handling.retryDelay, 0, MAX_RETRY_DELAY_MS, 0)
    const logs: LogEntry[] = []
    let attempts = 0
    let result: WorkflowNodeResult | undefined
    let failure: LogEntry | undefined

    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      if (attempt > 1) {
        logs.push(entry('info', RUN_ERRORS.retry(attempt - 1, retries)))
        await this.ports.sleep(delay, this.nodeSignal)
        if (this.timedOut || this.interrupted) break
      }
      attempts = attempt
      const outcome = await this.attempt(block, input, attempt, looped)
      result = outcome.result || undefined
      const attemptLogs = [...outcome.logs, ...(result?.logs ?? [])]
      logs.push(...attemptLogs)
      this.applyVariables(outcome.variablesSet)
      failure = attemptLogs.find((log) => log.status === 'error')
      if (!failure || this.timedOut || this.interrupted) break
    }

    const done = { startedAt, input, logs, attempts }
    if (failure && this.timedOut) {
      logs.push(entry('error', RUN_ERRORS.timedOut))
      await this.nodeEvent(block, executionId, 'error', done)
      return this.result('error', RUN_ERRORS.timedOut)
    }
    if (failure && this.interrupted) {
      // Run it again when the run goes on: its failure came from being stopped.
      this.state.queue.unshift(activation)
      this.state.visits--
      return this.result('interrupted')
    }
    if (failure) {
      const output = { error: failure.description }
      await this.nodeEvent(block, executionId, 'error', { ...done, output })
      if (!handling.continueOnFail) {
        return this.result('error', `${this.labelOf(block)}: ${failure.description}`)
      }
      this.complete(block, output, this.graph.defaultEdges(block))
      return undefined
    }

    if (result?.wait) {
      const parked = await this.park(block, executionId, result, done)
      if (parked) return undefined
    }
    if (result?.respond && !this.state.response) {
      this.state.response = result.respond
      await this.record({ type: 'response', nodeId: block.id, response: result.respond })
    }

    if (result?.iteration) {
      const iterations = (this.state.iterations ?? 0) + 1
      if (iterations > this.executor.maxIterations) {
        const error = RUN_ERRORS.iterations(this.executor.maxIterations)
        logs.push(entry('error', error))
        await this.nodeEvent(block, executionId, 'error', { ...done, output: { error } })
        return this.result('error', `${this.labelOf(block)}: ${error}`)
      }
      this.state.iterations = iterations
    }
    this.remember(block.id, result?.memory)

    const output = result?.output === undefined ? input : result.output
    await this.nodeEvent(block, executionId, 'success', { ...done, output })
    const edges = result?.conditionId
      ? this.graph.branchEdges(block, result.conditionId)
      : this.graph.defaultEdges(block)
    this.complete(block, output, edges)
    return undefined
  }

  /** What {{$trigger}} reads: the trigger node's output once it ran, else the run's input. */
  triggerData(): unknown {
    const root = this.executor.workflow.executable.root_block
    return root in this.state.outputs ? this.state.outputs[root] : this.state.input
  }

  attempt(block: WorkflowBlock, input: unknown, attempt: number, looped: boolean) {
    const { workflow } = this.executor
    const scope = {
      input,
      trigger: this.triggerData(),
      blocks: this.graph.blockList,
      outputs: this.state.outputs,
    }
    const variables: RunVariable[] = [
      ...this.state.variables.map((variable) => ({ ...variable })),
      ...referenceVariables(block, scope),
    ]
    return this.ports.runNode({
      workflow,
      block,
      variables,
      visit: this.state.visits,
      signal: this.nodeSignal,
      context: {
        runId: this.state.runId,
        workflowId: workflow.id,
        node: { id: block.id, type: block.type, title: block.title },
        input,
        trigger: this.state.trigger,
        attempt,
        conditions: block.conditions ?? [],
        memory: this.state.memory?.[block.id],
        looped,
        evaluateCondition: (condition) =>
          evaluateCondition(condition as ConditionContent | undefined, variables),
        outputOf: (node) => resolveReference({ kind: 'node', node, path: '' }, scope),
        triggerData: scope.trigger,
      },
    })
  }

  /** Parks the node; false when there is nothing to wait for (a time already past). */
  async park(
    block: WorkflowBlock,
    executionId: string,
    result: WorkflowNodeResult,
    done: { startedAt: string; input: unknown; logs: LogEntry[]; attempts: number }
  ): Promise<boolean> {
    const wait = result.wait!
    const resumeAt = validDate(wait.resumeAt)
    if (!wait.webhook && (!resumeAt || resumeAt.getTime() <= this.now().getTime())) {
      done.logs.push(entry('info', RUN_ERRORS.waitDone))
      return false
    }
    const parked: ParkedNode = {
      nodeId: block.id,
      nodeType: block.type,
      executionId,
      input: done.input,
      startedAt: done.startedAt,
      attempts: done.attempts,
      logs: done.logs,
    }
    if (block.title) parked.title = block.title
    if (resumeAt && !wait.webhook) parked.resumeAt = resumeAt.toISOString()
    if (wait.webhook) parked.webhook = true
    this.state.parked.push(parked)
    await this.nodeEvent(block, executionId, 'waiting', { ...done })
    return true
  }

  /** A parked node is done: its output is the webhook payload, or its input after a timer. */
  async unpark(node: ParkedNode, payload: unknown) {
    this.state.parked = this.state.parked.filter((parked) => parked !== node)
    const block = this.graph.blocks.get(node.nodeId)
    if (!block) return
    const output = node.webhook ? (payload ?? null) : node.input
    const logs = [...node.logs, entry('info', RUN_ERRORS.resumed)]
    await this.nodeEvent(block, node.executionId, 'success', {
      startedAt: node.startedAt,
      input: node.input,
      output,
      logs,
      attempts: node.attempts,
    })
    this.complete(block, output, this.graph.defaultEdges(block))
  }
}

export interface StartInput {
  runId: string
  trigger: RunTrigger
  input?: unknown
}

export class WorkflowExecutor {
  readonly graph: WorkflowGraph
  readonly maxNodeVisits: number
  readonly maxIterations: number

  constructor(
    readonly workflow: ExecutorWorkflow,
    readonly ports: ExecutorPorts,
    options: ExecutorOptions = {}
  ) {
    this.graph = options.graph ?? new WorkflowGraph(workflow.executable)
    this.maxNodeVisits = options.maxNodeVisits ?? MAX_NODE_VISITS
    this.maxIterations = options.maxIterations ?? DEFAULT_LOOP_MAX_ITERATIONS
  }

  initialState({ runId, trigger, input = null }: StartInput): RunState {
    return {
      version: STATE_VERSION,
      runId,
      trigger,
      input,
      variables: (this.workflow.variables ?? []).map(({ id, name, value }) => ({
        id,
        name,
        value: value ?? null,
      })),
      outputs: {},
      queue: [],
      parked: [],
      visits: 0,
    }
  }

  /** Runs from the trigger node with the trigger input. */
  async start(input: StartInput, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const state = this.initialState(input)
    const step = new Step(this, state, options)
    const root = this.graph.root
    if (!root) return step.result('error', RUN_ERRORS.noTrigger)
    state.queue.push({ nodeId: root.id, arrivals: [{ from: null, output: state.input }] })
    return step.drain()
  }

  /**
   * Resumes parked nodes: with nodeId the node waiting for a webhook call (payload: the
   * call), without it every timer that is due. NotWaitingError when none matches.
   */
  async resume(
    state: RunState,
    payload?: unknown,
    options: ExecutionOptions & { nodeId?: string } = {}
  ): Promise<ExecutionResult> {
    const step = new Step(this, state, options)
    const now = this.ports.now().getTime()
    const targets = options.nodeId
      ? state.parked.filter((node) => node.nodeId === options.nodeId && node.webhook)
      : state.parked.filter(
          (node) => !node.webhook && node.resumeAt && new Date(node.resumeAt).getTime() <= now
        )
    if (targets.length === 0) throw new NotWaitingError(options.nodeId)
    for (const node of targets) await step.unpark(node, payload)
    // Without it, a crash during the next node would go on from the state before the resume:
    // the wait would finish (and be recorded) a second time.
    await step.record({ type: 'checkpoint', state })
    return step.drain()
  }

  /** Goes on with a state an interruption left (nodes still queued). */
  async proceed(state: RunState, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    return new Step(this, state, options).drain()
  }
}
