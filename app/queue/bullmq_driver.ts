import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Job, JobsOptions, Queue, RepeatStrategy, Worker } from 'bullmq'
import type { Redis, RedisOptions } from 'ioredis'
import { nextCronTime, parseCron } from '#queue/cron'
import { DEFAULT_CONCURRENCY, type QueueLogger } from '#queue/in_process_driver'
import * as jobTypes from '#queue/types'

export interface BullMQDriverOptions {
  /** redis:// or rediss:// URL (REDIS_URL). */
  url: string
  /** Namespace of every Redis key of the queue. Default 'flowcraft'. */
  prefix?: string
  /** How long close() waits for running jobs before aborting their signal. Default 10 s. */
  closeTimeoutMs?: number
  /**
   * How long a worker's lock on a running job lasts without renewal (renewed every half of
   * it while the worker lives). A worker that dies holds its jobs this long. Default 10 s:
   * a workflow run cut off by a dead worker must go on elsewhere within seconds (docs/queue.md).
   * A worker whose event loop stalls past it loses its jobs to others; the run's own claim in
   * the database keeps them from running twice.
   */
  lockDurationMs?: number
  /**
   * How often workers look for running jobs whose lock has expired (a dead worker's) and put
   * them back to wait. A dead worker's job starts again after lockDurationMs plus up to twice
   * this. Default 5 s.
   */
  stalledIntervalMs?: number
  /**
   * How many times a job may be recovered from a dead worker; one stalling more often fails
   * (and its onFailed runs), so a job that crashes its worker cannot loop. Default 1.
   */
  maxStalledCount?: number
  /** Failed jobs kept in Redis for inspection, per job name. Default 1000. */
  keepFailed?: number
  logger?: QueueLogger
  /**
   * What this process puts back into Redis whenever Redis may have lost it: the periodic
   * jobs and a sweep of the runs the database holds without a job (docs/queue.md, "An empty
   * Redis"). Called on every (re)connection and whenever the driver finds its marker key
   * gone (Redis emptied without the connection dropping); the marker is set once it resolves.
   */
  onConnected?: () => Promise<boolean>
  /** How often the marker key is looked for. Default 10 s. */
  upkeepMs?: number
}

type BullMQ = typeof import('bullmq')

interface Runtime {
  bullmq: BullMQ
  connection: Redis
}

interface ActiveJob {
  controller: AbortController
  name: string
}

const DEFAULT_PREFIX = 'flowcraft'
export const DEFAULT_LOCK_MS = 10_000
export const DEFAULT_STALLED_MS = 5_000
export const DEFAULT_UPKEEP_MS = 10_000
const silentLogger: QueueLogger = { warn() {}, error() {} }

/** The reason a signal is aborted with when the driver shuts down. */
const SHUTDOWN = new Error('The queue is shutting down')
/** The reason when another worker may have the job now: this run must not finish it. */
const LOCK_LOST = new Error('The lock on this job was lost')

/**
 * Job ids and names as BullMQ accepts them: it refuses ':' in queue names and ids, and
 * integer-looking ids (its own counter's). '%' and ':' are percent-encoded and the first
 * character of an integer-looking id too, so decodeURIComponent gives back the original.
 */
export function toBullId(id: string): string {
  const escaped = id.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'))
  if (`${Number.parseInt(escaped, 10)}` !== escaped) return escaped
  const first = escaped.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')
  return `%${first}${escaped.slice(1)}`
}

export function fromBullId(id: string): string {
  try {
    return decodeURIComponent(id)
  } catch {
    return id
  }
}

/**
 * Cron ticks from the same matcher as the in-process driver (5 fields, UTC), so a pattern
 * fires at the same instants whichever driver runs it. BullMQ passes the later of the
 * previous tick and now: ticks missed while no worker ran are skipped, not replayed.
 */
const repeatStrategy: RepeatStrategy = (millis, options) =>
  options.pattern ? nextCronTime(options.pattern, millis) : undefined

/** Redis stores JSON; undefined has no JSON form, so it travels as null. */
function storable(payload: unknown) {
  return payload === undefined ? null : payload
}

/**
 * The scaled driver (QUEUE_DRIVER=bullmq): jobs live in Redis and run in whichever
 * `node ace queue:work` process takes them. One BullMQ queue and, once work() is called, one
 * worker per job name. bullmq and ioredis are imported on first use, so the embedded mode
 * never loads them.
 */
export class BullMQDriver implements jobTypes.QueueDriver {
  readonly name = 'bullmq' as const
  readonly prefix: string

  #options: BullMQDriverOptions
  #logger: QueueLogger
  #runtime: Promise<Runtime> | null = null
  #queues = new Map<string, Queue>()
  #workers = new Map<string, Worker>()
  #definitions = new Map<string, jobTypes.JobDefinition>()
  #active = new Map<string, ActiveJob>()
  #hooks = new Set<Promise<void>>()
  /** Aborted with SHUTDOWN when close() times out: the signal of onFailed hooks. */
  #shutdown = new AbortController()
  #closing: Promise<void> | null = null
  #connectionDown = false
  #clients = new Set<Redis>()
  #connection: Redis | null = null
  #registering: Promise<void> | null = null
  #upkeep: NodeJS.Timeout | null = null

  constructor(options: BullMQDriverOptions) {
    this.#options = options
    this.prefix = options.prefix || DEFAULT_PREFIX
    this.#logger = options.logger ?? silentLogger
  }

  async dispatch<Payload>(name: string, payload: Payload, options: jobTypes.JobOptions = {}) {
    this.#assertOpen()
    const { delayMs, attempts, backoffMs } = jobTypes.checkJobOptions(options)
    const id = options.jobId ?? randomUUID()
    const bullId = toBullId(id)
    const queue = await this.#queue(name)
    if (options.jobId !== undefined && (await queue.getJobState(bullId)) === 'failed') {
      // A failed job is kept for inspection but is over, as it is in-process, where its id
      // is free again; remove it so that the id can be queued anew.
      await queue.remove(bullId)
    }
    const jobOptions: JobsOptions = { jobId: bullId, attempts }
    if (delayMs > 0) jobOptions.delay = delayMs
    if (attempts > 1) jobOptions.backoff = { type: 'fixed', delay: backoffMs }
    // An id already queued, delayed or running makes this a no-op (BullMQ keeps the first).
    await queue.add(name, storable(payload), jobOptions)
    return id
  }

  async repeat<Payload>(name: string, payload: Payload, options: jobTypes.RepeatOptions) {
    this.#assertOpen()
    const { hasEvery, hasCron } = jobTypes.checkRepeatOptions(options)
    if (hasCron) parseCron(options.cron!)

    const queue = await this.#queue(name)
    // Upserting replaces the scheduler and its next delayed tick; a tick already promoted to
    // waiting keeps the payload it was created with.
    const template = { name, data: storable(payload) }
    if (hasEvery) {
      const every = options.everyMs!
      // Started on the next multiple of everyMs since the epoch, as in-process, so ticks land
      // on the same instants wherever the schedule is registered (BullMQ would start now).
      const startDate = Math.floor(Date.now() / every) * every + every
      await queue.upsertJobScheduler(toBullId(options.key), { every, startDate }, template)
    } else {
      await queue.upsertJobScheduler(
        toBullId(options.key),
        { pattern: options.cron!, tz: 'UTC' },
        template
      )
    }
  }

  async removeRepeat(name: string, key: string) {
    const queue = await this.#queue(name)
    await queue.removeJobScheduler(toBullId(key))
  }

  async exists(name: string, jobId: string) {
    const queue = await this.#queue(name)
    return (await queue.getJobState(toBullId(jobId))) !== 'unknown'
  }

  /** Starts one worker per new job name; may be called again with more definitions. */
  async work(definitions: jobTypes.JobDefinition[]) {
    this.#assertOpen()
    const { bullmq, connection } = await this.#runtimeReady()
    for (const definition of definitions) {
      this.#definitions.set(definition.name, definition)
      if (this.#workers.has(definition.name)) continue
      const worker = new bullmq.Worker(
        toBullId(definition.name),
        (job, token) => this.#process(job, token),
        {
          connection,
          prefix: this.prefix,
          name: `${hostname()}:${process.pid}`,
          concurrency: definition.concurrency ?? DEFAULT_CONCURRENCY,
          lockDuration: this.#options.lockDurationMs ?? DEFAULT_LOCK_MS,
          stalledInterval: this.#options.stalledIntervalMs ?? DEFAULT_STALLED_MS,
          maxStalledCount: this.#options.maxStalledCount ?? 1,
          removeOnComplete: { count: 0 },
          removeOnFail: { count: this.#options.keepFailed ?? 1000 },
          settings: { repeatStrategy },
        }
      )
      worker.on('failed', (job, error) => this.#track(this.#failed(job, error)))
      worker.on('lockRenewalFailed', (jobIds) => {
        for (const id of jobIds) this.#active.get(id)?.controller.abort(LOCK_LOST)
      })
      worker.on('error', (error) => this.#error(error, definition.name))
      this.#workers.set(definition.name, worker)
    }
  }

  /** Resolves once Redis answers and every worker is connected (start-up logs, tests). */
  async ready() {
    const { connection } = await this.#runtimeReady()
    await connection.ping()
    await Promise.all([...this.#workers.values()].map((worker) => worker.waitUntilReady()))
  }

  /**
   * Whether Redis answers commands right now: false while connecting again and once closed: callers that must not wait for Redis (a webhook caller)
   * can turn away at once rather than queue a command that waits for the reconnection.
   */
  get available() {
    if (this.#closing) return false
    // 'wait': never connected yet (connections are lazy); the first command will tell.
    const status = this.#connection?.status ?? 'wait'
    return status === 'ready' || status === 'wait'
  }

  /**
   * Connects, and runs onConnected unless it is running (it then resolves with that run).
   * The web process calls it at boot; reconnections and an emptied Redis call it too.
   */
  async register(): Promise<void> {
    const { connection } = await this.#runtimeReady()
    if (connection.status === 'wait') await connection.connect().catch(() => {})
    return this.#register()
  }

  /** The key whose absence says that Redis lost what onConnected put there. */
  get #markerKey() {
    return `${this.prefix}:registered`
  }

  #register(): Promise<void> {
    const onConnected = this.#options.onConnected
    if (!onConnected || this.#closing) return Promise.resolve()
    this.#registering ??= (async () => {
      try {
        // False: this process keeps nothing there, so it must not vouch for the rest.
        if (await onConnected()) await this.#connection?.set(this.#markerKey, String(Date.now()))
      } catch (error) {
        // The next reconnection or upkeep tick tries again.
        this.#logger.warn({ err: error }, 'Queue registrations not restored')
      }
    })().finally(() => (this.#registering = null))
    return this.#registering
  }

  /** Redis emptied under a live connection (FLUSHALL, keys deleted) gives no event: look. */
  #startUpkeep(connection: Redis) {
    if (!this.#options.onConnected || this.#upkeep) return
    this.#upkeep = setInterval(() => {
      if (connection.status !== 'ready' || this.#registering || this.#closing) return
      connection.exists(this.#markerKey).then(
        (found) => {
          if (!found) void this.#register()
        },
        () => {}
      )
    }, this.#options.upkeepMs ?? DEFAULT_UPKEEP_MS)
    this.#upkeep.unref()
  }

  close(): Promise<void> {
    this.#closing ??= this.#close()
    return this.#closing
  }

  get closed() {
    return this.#closing !== null
  }

  /** Jobs by state over the job names this driver dispatched or scheduled (health, tests). */
  async counts() {
    const counts = { waiting: 0, delayed: 0, active: 0, failed: 0, repeats: 0 }
    for (const queue of this.#queues.values()) {
      const byState = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed')
      counts.waiting += byState.waiting ?? 0
      counts.delayed += byState.delayed ?? 0
      counts.active += byState.active ?? 0
      counts.failed += byState.failed ?? 0
      counts.repeats += await queue.getJobSchedulersCount()
    }
    return counts
  }

  /** The registered repeats of a job name and their next tick. */
  async repeats(name: string) {
    const queue = await this.#queue(name)
    const schedulers = await queue.getJobSchedulers()
    return schedulers.map((s) => ({ key: fromBullId(s.key), nextRunAt: s.next ?? null }))
  }

  #assertOpen() {
    if (this.#closing) throw new Error('The queue is closed')
  }

  #runtimeReady(): Promise<Runtime> {
    this.#runtime ??= (async () => {
      const bullmq = await import('bullmq')
      const { Redis } = await import('ioredis')
      const clients = this.#clients
      // BullMQ gives every worker a blocking copy of this connection. Knowing the copies lets
      // close() drop them when Redis is unreachable: BullMQ's own close waits for Redis.
      class TrackedRedis extends Redis {
        duplicate(override?: Partial<RedisOptions>) {
          const copy = super.duplicate(override)
          clients.add(copy)
          copy.once('end', () => clients.delete(copy))
          return copy
        }
      }
      const connection = new TrackedRedis(this.#options.url, {
        // Workers block on Redis; BullMQ requires commands to wait out a reconnection
        // rather than fail after a few retries.
        maxRetriesPerRequest: null,
        connectionName: `${this.prefix.replace(/\s/g, '_')}:driver`,
        lazyConnect: true,
      })
      connection.on('error', (error) => this.#error(error))
      connection.on('reconnecting', () => {
        if (this.#connectionDown || this.#closing) return
        this.#connectionDown = true
        this.#logger.warn({ prefix: this.prefix }, 'Queue lost its Redis connection; reconnecting')
      })
      connection.on('ready', () => {
        // Every connection may be to a Redis that lost its data (restarted empty, failed
        // over): put back what this process keeps there.
        void this.#register()
        if (!this.#connectionDown) return
        this.#connectionDown = false
        this.#logger.warn({ prefix: this.prefix }, 'Queue reconnected to Redis')
      })
      this.#connection = connection
      this.#startUpkeep(connection)
      return { bullmq, connection }
    })()
    return this.#runtime
  }

  async #queue(name: string): Promise<Queue> {
    const existing = this.#queues.get(name)
    if (existing) return existing
    const { bullmq, connection } = await this.#runtimeReady()
    // Another call may have created it while this one awaited the import.
    const raced = this.#queues.get(name)
    if (raced) return raced
    const queue = new bullmq.Queue(toBullId(name), {
      connection,
      prefix: this.prefix,
      settings: { repeatStrategy },
      defaultJobOptions: {
        // Done jobs leave Redis at once, so their id may be queued again (as in-process).
        removeOnComplete: true,
        removeOnFail: { count: this.#options.keepFailed ?? 1000 },
      },
    })
    queue.on('error', (error) => this.#error(error, name))
    this.#queues.set(name, queue)
    return queue
  }

  /** Connection errors repeat on every retry while Redis is away: 'reconnecting' logs those. */
  #error(error: unknown, job?: string) {
    const message = error instanceof Error ? error.message : String(error)
    if (/ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|Connection is closed/i.test(message)) {
      return
    }
    this.#logger.error({ err: error, job }, 'Queue error')
  }

  async #process(job: Job, token?: string) {
    const definition = this.#definitions.get(job.name)
    if (!definition) throw new Error(`No handler for job "${job.name}" in this worker`)
    const controller = new AbortController()
    const id = job.id!
    this.#active.set(id, { controller, name: job.name })
    const context: jobTypes.JobContext = {
      jobId: fromBullId(id),
      attempt: job.attemptsMade + 1,
      signal: controller.signal,
    }
    try {
      await definition.handler(job.data, context)
      // The handler's result is not kept: in-process drops it, and it may not be JSON.
      return undefined
    } catch (error) {
      if (error instanceof jobTypes.RetryLater) {
        const { bullmq } = await this.#runtimeReady()
        // The job itself goes to the delayed set (no copy, no attempt spent).
        await job.moveToDelayed(Date.now() + Math.max(0, error.delayMs), token)
        throw new bullmq.DelayedError()
      }
      if (controller.signal.reason === SHUTDOWN && (await this.#handBack(job, token))) {
        const { bullmq } = await this.#runtimeReady()
        // Tells BullMQ the job has left the active list by other means: not a failure.
        throw new bullmq.WaitingError()
      }
      throw error instanceof Error ? error : new Error(String(error))
    } finally {
      this.#active.delete(id)
    }
  }

  /**
   * Stopped by shutdown rather than failed: back to wait with its attempt not spent, so
   * another worker (or this one after a restart) runs it again.
   */
  async #handBack(job: Job, token: string | undefined): Promise<boolean> {
    try {
      await job.moveToWait(token)
      this.#logger.warn(
        { job: job.name, jobId: fromBullId(job.id!) },
        `Job ${job.name} stopped by shutdown; returned to the queue`
      )
      return true
    } catch (error) {
      // Left active: its lock expires and the stalled check returns it.
      this.#logger.warn({ err: error, job: job.name }, 'Job not handed back at shutdown')
      return false
    }
  }

  /** BullMQ emits 'failed' for every failed attempt; the last one has finishedOn set. */
  async #failed(job: Job | undefined, error: Error) {
    if (!job) return
    const definition = this.#definitions.get(job.name)
    const jobId = fromBullId(job.id!)
    const bindings = { err: error, job: job.name, jobId, attempt: job.attemptsMade }
    if (!job.finishedOn) {
      this.#logger.warn(bindings, `Job ${job.name} failed; retrying`)
      return
    }
    this.#logger.error(bindings, `Job ${job.name} failed after ${job.attemptsMade} attempts`)
    if (!definition?.onFailed) return
    const context: jobTypes.JobContext = {
      jobId,
      attempt: job.attemptsMade,
      signal: this.#shutdown.signal,
    }
    try {
      await definition.onFailed(job.data, error, context)
    } catch (hookError) {
      this.#logger.error({ ...bindings, err: hookError }, `onFailed of job ${job.name} threw`)
    }
  }

  #track(promise: Promise<void>) {
    this.#hooks.add(promise)
    promise.finally(() => this.#hooks.delete(promise))
  }

  async #close() {
    if (this.#upkeep) clearInterval(this.#upkeep)
    const workers = [...this.#workers.values()]
    const closeTimeoutMs = this.#options.closeTimeoutMs ?? 10_000
    // With nothing running and Redis away there is nothing to wait for.
    const pointless = () => this.#active.size === 0 && this.#connectionDown
    // worker.close() stops fetching and waits for the running jobs; jobs waiting or delayed
    // stay in Redis for the next worker.
    const stopped = Promise.allSettled(workers.map((worker) => worker.close()))
    let clean = await settles(stopped, closeTimeoutMs, pointless)
    if (!clean && this.#active.size > 0) {
      // Past the deadline: ask the handlers to stop; #process hands their jobs back.
      this.#shutdown.abort(SHUTDOWN)
      for (const active of this.#active.values()) active.controller.abort(SHUTDOWN)
      clean = await settles(stopped, Math.min(1000, closeTimeoutMs), pointless)
    }
    if (this.#active.size > 0) {
      const left = [...this.#active.values()].map((a) => a.name)
      this.#logger.warn(
        { jobs: left },
        'Queue closed with jobs still running; their lock expires and another worker retries them'
      )
    }
    await settles(Promise.allSettled([...this.#hooks]), closeTimeoutMs)

    const runtime = this.#runtime && (await this.#runtime.catch(() => null))
    if (!runtime) return
    const { connection } = runtime
    const queuesClosed = Promise.allSettled([...this.#queues.values()].map((q) => q.close()))
    const quit = queuesClosed.then(() => connection.quit())
    if (!clean || !(await settles(quit, 2000, () => this.#connectionDown))) {
      // Redis is unreachable: drop the connections rather than wait for it to come back.
      for (const client of [connection, ...this.#clients]) client.disconnect()
    }
  }
}

/**
 * Whether the promise settles within the time, giving up early once `giveUp` says so.
 */
async function settles(
  promise: Promise<unknown>,
  ms: number,
  giveUp: () => boolean = () => false
): Promise<boolean> {
  let settled = false
  promise.then(
    () => (settled = true),
    () => (settled = true)
  )
  const deadline = Date.now() + ms
  while (!settled && Date.now() < deadline && !giveUp()) {
    await new Promise<void>((resolve) => setTimeout(resolve, 20))
  }
  return settled
}
