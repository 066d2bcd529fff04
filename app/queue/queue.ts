/**
 * The queue facade: the one module features import. Job code is written once with defineJob
 * and runs unchanged on the in-process driver (embedded default) or on BullMQ.
 *
 * How a feature adds a job:
 *
 *   // app/actions/workflows/run_workflow_job.ts
 *   export const runWorkflow = defineJob<{ runId: string }>({
 *     name: 'workflows:run',
 *     concurrency: 10,
 *     handler: async ({ runId }, { signal }) => { ... },
 *     onFailed: async ({ runId }, error) => { ... mark the run failed ... },
 *   })
 *
 *   // start/workflows.ts, listed in adonisrc.ts preloads
 *   registerJobModules([() => import('#actions/workflows/run_workflow_job')])
 *
 *   // anywhere, after the transaction that created the run has committed
 *   await dispatch(runWorkflow, { runId }, { attempts: 3, backoffMs: 5000 })
 *
 * The loaders are imported before workers start and before the first dispatch, so every
 * process (web, `node ace queue:work`, tests) knows every job by name.
 */
import env from '#start/env'
import logger from '@adonisjs/core/services/logger'
import { InProcessDriver } from '#queue/in_process_driver'
import { BullMQDriver } from '#queue/bullmq_driver'
import type { JobDefinition, JobOptions, QueueDriver, RepeatOptions } from '#queue/types'

const definitions = new Map<string, JobDefinition>()
const pendingLoaders: (() => Promise<unknown>)[] = []
let loading: Promise<void> = Promise.resolve()
let driver: QueueDriver | null = null

/** Registers a job by its name; import-time, from the job's own module. */
export function defineJob<Payload = any>(
  definition: JobDefinition<Payload>
): JobDefinition<Payload> {
  const existing = definitions.get(definition.name)
  if (existing && existing !== definition) {
    throw new Error(`A job named "${definition.name}" is already defined`)
  }
  definitions.set(definition.name, definition)
  return definition
}

/** Every job defined so far. */
export function jobDefinitions(): JobDefinition[] {
  return [...definitions.values()]
}

/**
 * Modules that call defineJob, imported lazily (so ace commands that never touch the queue do
 * not load them). Call it from a feature's preload.
 */
export function registerJobModules(loaders: (() => Promise<unknown>)[]) {
  pendingLoaders.push(...loaders)
}

/** Imports the registered job modules not imported yet. */
export function loadJobModules(): Promise<void> {
  const batch = pendingLoaders.splice(0)
  if (batch.length > 0) {
    loading = loading.then(async () => {
      await Promise.all(batch.map((load) => load()))
    })
  }
  return loading
}

function createDriver(): QueueDriver {
  const queueLogger = logger.child({ component: 'queue' })
  if (env.get('QUEUE_DRIVER') === 'bullmq') {
    const url = env.get('REDIS_URL')
    if (!url) {
      throw new Error(
        'QUEUE_DRIVER=bullmq needs REDIS_URL (e.g. redis://127.0.0.1:6379), or use ' +
          'QUEUE_DRIVER=in-process'
      )
    }
    return new BullMQDriver({
      url,
      prefix: env.get('QUEUE_PREFIX') || undefined,
      logger: queueLogger,
      onConnected: runConnectedHooks,
    })
  }
  return new InProcessDriver({ logger: queueLogger })
}

/** The configured driver, created on first use. */
export function queueDriver(): QueueDriver {
  driver ??= createDriver()
  return driver
}

/**
 * Replaces the driver (tests that need a short close timeout, or a driver built by hand).
 * The previous one is not closed: close it first.
 */
export function useQueueDriver(replacement: QueueDriver | null) {
  driver = replacement
}

type JobReference<Payload> = string | JobDefinition<Payload>

async function knownName(job: JobReference<any>): Promise<string> {
  const name = typeof job === 'string' ? job : job.name
  await loadJobModules()
  if (!definitions.has(name)) {
    throw new Error(
      `Unknown job "${name}": define it with defineJob() in a module given to registerJobModules()`
    )
  }
  return name
}

/** Queues a job; resolves with its id (the given jobId, or the existing job's when a duplicate). */
export async function dispatch<Payload>(
  job: JobReference<Payload>,
  payload: Payload,
  options?: JobOptions
): Promise<string> {
  return queueDriver().dispatch(await knownName(job), payload, options)
}

/** Runs a job on a schedule; the same key replaces the earlier schedule. */
export async function repeat<Payload>(
  job: JobReference<Payload>,
  payload: Payload,
  options: RepeatOptions
): Promise<void> {
  return queueDriver().repeat(await knownName(job), payload, options)
}

export async function removeRepeat(job: JobReference<any>, key: string): Promise<void> {
  return queueDriver().removeRepeat(typeof job === 'string' ? job : job.name, key)
}

type WorkingHook = () => (() => unknown) | void
const workingHooks: WorkingHook[] = []
let stopHooks: (() => unknown)[] = []
let hooksStarted = false

/**
 * Something a process that works jobs runs beside them (workflow run leases: renewing this
 * process's, taking back those of dead processes). Called by startWorkers, after the job
 * modules are imported; the function it returns is called by closeQueue. Import-time, from
 * a job module.
 */
export function whileWorking(hook: WorkingHook) {
  workingHooks.push(hook)
}

type ConnectedHook = () => Promise<unknown>
const connectedHooks: ConnectedHook[] = []
let keepsRegistrations = false

/**
 * Something that must be in the queue whenever it is reachable: the periodic jobs and a
 * sweep of runs left without a job. Run by the processes that keep the queue's registrations
 * (keepQueueRegistrations): once in-process, and with BullMQ on every connection to Redis and
 * whenever Redis turns out to have been emptied. Import-time, from a preload.
 */
export function whenQueueConnected(hook: ConnectedHook) {
  connectedHooks.push(hook)
}

/** Resolves true once every hook ran; false in processes that do not keep the registrations. */
async function runConnectedHooks(): Promise<boolean> {
  if (!keepsRegistrations) return false
  await loadJobModules()
  for (const hook of connectedHooks) await hook()
  return true
}

/**
 * Declares this process one that keeps the queue's registrations (web processes and
 * `node ace queue:work`; not other commands nor tests) and runs the hooks now. A Redis that
 * restarts empty, or is emptied, gets them back from whichever of these processes notices
 * first, without a restart (docs/queue.md, "An empty Redis").
 */
export async function keepQueueRegistrations(): Promise<void> {
  keepsRegistrations = true
  const current = queueDriver()
  if (current instanceof BullMQDriver) await current.register()
  else await runConnectedHooks()
}

/**
 * Whether a dispatch can be expected to land now: always in-process; with BullMQ, false
 * while Redis is known to be away (a dispatch would wait for it to come back).
 */
export function queueAvailable(): boolean {
  const current = queueDriver()
  return !(current instanceof BullMQDriver) || current.available
}

/** Whether a job with this id exists (waiting, delayed or running). */
export async function jobExists(job: JobReference<any>, jobId: string): Promise<boolean> {
  return queueDriver().exists(await knownName(job), jobId)
}

/** Imports the job modules and starts working every defined job on the configured driver. */
export async function startWorkers(): Promise<QueueDriver> {
  await loadJobModules()
  const current = queueDriver()
  await current.work(jobDefinitions())
  if (!hooksStarted) {
    hooksStarted = true
    for (const hook of workingHooks) {
      const stop = hook()
      if (stop) stopHooks.push(stop)
    }
  }
  return current
}

/** Finishes in-flight jobs and stops; the next use creates a fresh driver. No-op when unused. */
export async function closeQueue(): Promise<void> {
  const current = driver
  driver = null
  const stops = stopHooks
  stopHooks = []
  hooksStarted = false
  await current?.close()
  // After the jobs: a run still finishing keeps its lease renewed until it is done.
  for (const stop of stops) await stop()
}
