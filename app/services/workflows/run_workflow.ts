import { DateTime } from 'luxon'
import WorkflowRun from '#models/workflow_run'
import { pluginRegistry } from '#services/plugin_registry'
import { NotWaitingError, WorkflowExecutor, type ExecutionResult } from '#engine/workflow/executor'
import { parseState } from '#engine/workflow/state'
import type { ExecutableWorkflow, RunTrigger } from '#shared/workflow/types'
import { workflowPorts } from './executor_ports.js'
import { capabilityTurn } from '#services/capability_stamp'
import { emitRunEvent } from './run_events.js'
import { dropLease, holdLease } from './run_leases.js'
import {
  claimQueued,
  claimWaiting,
  freeSlots,
  insertClaimed,
  insertQueued,
  leaseExpired,
} from './run_claims.js'
import {
  failWithoutRunning,
  outcomeOf,
  RunRecorder,
  settle,
  type RunOutcome,
} from './run_recorder.js'
import {
  concurrencyOf,
  executorWorkflow,
  forRun,
  loadRunAndWorkflow,
  loadWorkflow,
  RUN_TEXTS,
  timeoutMsOf,
  type RunnableWorkflow,
  type WorkflowLoader,
} from './runnable_workflow.js'
import { loopMaxIterations } from '#services/loop_limit'

/**
 * Runs of workflows (issue 6 "Running"): creating a run and driving the executor through it
 * (start, go on after an interruption, resume a wait). What a run reads of its workflow is
 * in runnable_workflow.ts, how a process takes a run in run_claims.ts (slots and leases in
 * run_leases.ts), what is written of it in run_recorder.ts, runs left behind in
 * run_recovery.ts and old runs' deletion in run_pruning.ts. Explicit arguments only (no HTTP
 * context), so queue workers and ace commands call it as controllers do. Queue jobs are in
 * jobs.ts.
 */

export interface ExecuteOptions {
  loadWorkflow?: WorkflowLoader
}

/**
 * Runs created by this process for its own in-process queue: the run job takes the record
 * and the workflow from here rather than reading back what was written a moment ago.
 * Bounded: runs whose job never comes (a queue closed meanwhile) are forgotten oldest first.
 */
const handOffs = new Map<
  string,
  { run: WorkflowRun; workflow: RunnableWorkflow; claimed?: boolean }
>()
const MAX_HAND_OFFS = 10_000

/** Runs inserted claimed (or being inserted) whose job has not started yet. */
let claimsPending = 0

function takeHandOff(runId: string) {
  const handed = handOffs.get(runId)
  handOffs.delete(runId)
  if (handed?.claimed) claimsPending--
  return handed
}

/** A hand-off whose job never came: its claim is left to expire, and the run to be taken back. */
function forgetHandOff(runId: string) {
  if (takeHandOff(runId)?.claimed) dropLease(runId)
}

/**
 * A queued run of a published workflow; dispatch 'workflow.run' with its id after this.
 * `handOff`: the job runs in this process (in-process driver) and may use what was read;
 * dispatch it right away: when the queue would start it at once, the run may be inserted
 * already claimed (insertClaimed).
 */
export async function createRun(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown,
  options: { handOff?: boolean; test?: ExecutableWorkflow } = {}
): Promise<string> {
  if (options.test) return createTestRun(workflow, trigger, input, options.test)
  if (!workflow.executableWorkflow) throw new Error(RUN_TEXTS.notPublished)
  let claimed: WorkflowRun | null = null
  if (options.handOff && freeSlots() > claimsPending) {
    // The slot is reserved while the insert runs, so concurrent calls do not all count on it.
    claimsPending++
    claimed = await insertClaimed(workflow, trigger, input).catch((error) => {
      claimsPending--
      throw error
    })
    if (!claimed) claimsPending--
  }
  const run = claimed ?? (await insertQueued(workflow.id, trigger, input))
  if (options.handOff) {
    if (handOffs.size >= MAX_HAND_OFFS) forgetHandOff(handOffs.keys().next().value!)
    handOffs.set(run.id, { run, workflow, claimed: Boolean(claimed) })
  }
  emitRunEvent({ runId: run.id, workflowId: workflow.id, nodeId: null, status: 'queued' })
  return run.id
}

/**
 * A test run of the draft: it keeps the draft as compiled now, so later edits (and the
 * published version) do not change it, even when it waits and resumes later.
 */
async function createTestRun(
  workflow: RunnableWorkflow,
  trigger: RunTrigger,
  input: unknown,
  executable: ExecutableWorkflow
) {
  const run = await WorkflowRun.create({
    workflowId: workflow.id,
    status: 'queued',
    trigger,
    input: input ?? null,
    isTest: true,
    executableWorkflow: executable,
  })
  emitRunEvent({ runId: run.id, workflowId: workflow.id, nodeId: null, status: 'queued' })
  return run.id
}

/**
 * The run's timeout, the worker's interrupt and the nodes' signal (aborted by either), made
 * of two controllers and one timer that `dispose` clears when the executor call ends:
 * AbortSignal.timeout and AbortSignal.any keep weak references and timers alive per run,
 * which showed in the profile of the workflows bench.
 */
function runSignals(workflow: RunnableWorkflow, interrupt?: AbortSignal) {
  const timeout = new AbortController()
  const nodes = new AbortController()
  const timer = setTimeout(() => {
    const reason = new DOMException('The run timed out', 'TimeoutError')
    timeout.abort(reason)
    nodes.abort(reason)
  }, timeoutMsOf(workflow.settings))
  // As AbortSignal.timeout: a pending run timeout never keeps a process alive.
  timer.unref()
  const onInterrupt = () => nodes.abort(interrupt!.reason)
  if (interrupt?.aborted) onInterrupt()
  else interrupt?.addEventListener('abort', onInterrupt, { once: true })
  return {
    signals: { signal: timeout.signal, interrupt, nodeSignal: nodes.signal },
    dispose() {
      clearTimeout(timer)
      interrupt?.removeEventListener('abort', onInterrupt)
    },
  }
}

/** The run, then its workflow through the given loader. */
async function readThen(runId: string, load: WorkflowLoader) {
  const run = await WorkflowRun.find(runId)
  if (!run) return null
  const claimable = run.status === 'queued' || run.status === 'running'
  return { run, workflow: claimable ? await load(run.workflowId) : null }
}

/**
 * Runs a queued run (from its trigger, or on from where an interruption left it). At the
 * workflow's concurrency cap the run stays queued and the outcome says `deferred`. The
 * signal is the worker's: when it aborts, the run goes back to queued with its state.
 */
export async function executeRun(
  runId: string,
  signal?: AbortSignal,
  options: ExecuteOptions = {}
): Promise<RunOutcome | null> {
  const read = options.loadWorkflow
    ? await readThen(runId, options.loadWorkflow)
    : (takeHandOff(runId) ?? (await loadRunAndWorkflow(runId)))
  if (!read) return null
  const { run } = read
  const workflow = read.workflow ? forRun(run, read.workflow) : null
  // Inserted running by createRun for this very job: claimed already.
  const claimed = 'claimed' in read && read.claimed === true
  const now = new Date()
  if (!claimed && run.status === 'running') {
    // Held by another process: if it has died, its lease runs out and this job takes over
    // then (or the lease check has put the run back to queued by that time).
    if (run.leaseExpiresAt === null) return outcomeOf(run)
    if (!leaseExpired(run, now)) return busy(run)
  } else if (run.status !== 'queued' && !claimed) {
    return outcomeOf(run)
  }
  if (!workflow) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  // A run that started before (cut off by a crash or a shutdown) may have left open records.
  const ranBefore = !claimed && (Boolean(run.state) || Boolean(run.startedAt))
  if (!claimed && !(await claimQueued(run, concurrencyOf(workflow.settings), now))) {
    await run.refresh()
    if (run.status === 'queued') return outcomeOf(run, { deferred: true })
    if (run.status === 'running' && run.leaseExpiresAt) return busy(run)
    return outcomeOf(run)
  }
  // What the claim wrote, without reading the row back.
  run.status = 'running'
  run.startedAt ??= DateTime.fromJSDate(now)
  emitRunEvent({ runId: run.id, workflowId: run.workflowId, nodeId: null, status: 'running' })

  // The run's plan checks (one per node) share one view of the capability stamp: the one
  // read with the workflow, else one read for the whole run.
  const turn = capabilityTurn(workflow.capabilityStamp)
  return (async () => {
    const recorder = new RunRecorder(run, await pluginRegistry(), {
      mayHaveOpenRows: ranBefore,
      workflow,
    })
    const executor = new WorkflowExecutor(
      executorWorkflow(workflow),
      await workflowPorts(recorder.handle, turn),
      { graph: workflow.graph, maxIterations: loopMaxIterations() }
    )
    const { signals, dispose } = runSignals(workflow, signal)
    let result: ExecutionResult
    try {
      result = await recorder.keepingRecords(() =>
        run.state
          ? executor.proceed(parseState(run.state), signals)
          : executor.start({ runId: run.id, trigger: run.trigger, input: run.input }, signals)
      )
    } catch (error) {
      // The job fails (onFailed records it): the lease must not outlive this attempt.
      dropLease(run.id)
      throw error
    } finally {
      dispose()
    }
    return settle(run, workflow, result, recorder)
  })()
}

/** A run another process holds: try again when its lease would run out. */
function busy(run: WorkflowRun): RunOutcome {
  return outcomeOf(run, {
    deferred: true,
    busyUntil: run.leaseExpiresAt?.toUTC().toISO() ?? undefined,
  })
}

/**
 * Resumes a waiting run: with nodeId, the node waiting for a webhook call (payload: the
 * call); without, every timer that is due. `notResumed` when there was nothing to resume.
 * A resume does not wait for a concurrency slot: the run already had one when it parked,
 * and a webhook caller should not be kept waiting behind other runs.
 */
export async function resumeRun(
  runId: string,
  payload?: unknown,
  options: ExecuteOptions & { nodeId?: string; signal?: AbortSignal } = {}
): Promise<RunOutcome | null> {
  const run = await WorkflowRun.find(runId)
  if (!run) return null
  if (run.status !== 'waiting') return outcomeOf(run, { notResumed: true })
  const state = parseState(run.state)
  const due = options.nodeId
    ? state.parked.some((node) => node.nodeId === options.nodeId && node.webhook)
    : state.parked.some((node) => node.resumeAt && Date.parse(node.resumeAt) <= Date.now())
  if (!due) return outcomeOf(run, { notResumed: true })

  const loaded = await (options.loadWorkflow ?? loadWorkflow)(run.workflowId)
  if (!loaded) return failWithoutRunning(run, null, RUN_TEXTS.deleted)
  const workflow = forRun(run, loaded)
  if (!workflow.executableWorkflow) return failWithoutRunning(run, workflow, RUN_TEXTS.notPublished)

  const now = new Date()
  const cap = concurrencyOf(workflow.settings)
  const claimed = await claimWaiting(run, cap, now)
  if (!claimed) {
    await run.refresh()
    // Still waiting: the workflow has its maximum of runs going on; try again later.
    if (run.status === 'waiting') return outcomeOf(run, { notResumed: true, deferred: true })
    return outcomeOf(run, { notResumed: true })
  }
  holdLease(run.id)
  run.status = 'running'
  emitRunEvent({ runId: run.id, workflowId: run.workflowId, nodeId: null, status: 'running' })

  const turn = capabilityTurn(workflow.capabilityStamp)
  return (async () => {
    const recorder = new RunRecorder(run, await pluginRegistry(), {
      mayHaveOpenRows: true,
      workflow,
    })
    const executor = new WorkflowExecutor(
      executorWorkflow(workflow),
      await workflowPorts(recorder.handle, turn),
      { graph: workflow.graph, maxIterations: loopMaxIterations() }
    )
    const { signals, dispose } = runSignals(workflow, options.signal)
    try {
      const result = await recorder.keepingRecords(() =>
        executor.resume(state, payload, { ...signals, nodeId: options.nodeId })
      )
      dispose()
      return await settle(run, workflow, result, recorder)
    } catch (error) {
      dispose()
      dropLease(run.id)
      if (!(error instanceof NotWaitingError)) throw error
      run.merge({ status: 'waiting', claimedBy: null, leaseExpiresAt: null })
      await run.save()
      return outcomeOf(run, { notResumed: true })
    }
  })()
}
