import { randomUUID } from 'node:crypto'
import { Alarm } from '#queue/alarm'
import { nextCronTime, parseCron, type CronSchedule } from '#queue/cron'
import * as jobTypes from '#queue/types'

/** The part of a pino-style logger the driver uses (the AdonisJS logger fits). */
export interface QueueLogger {
  warn(bindings: Record<string, unknown>, message: string): void
  error(bindings: Record<string, unknown>, message: string): void
}

export interface InProcessDriverOptions {
  /** How long close() waits for running jobs before aborting their signal. Default 10 s. */
  closeTimeoutMs?: number
  logger?: QueueLogger
}

export const DEFAULT_CONCURRENCY = 5

interface QueuedJob {
  key: string
  id: string
  name: string
  payload: unknown
  attempts: number
  backoffMs: number
  /** Attempts started so far. */
  attempt: number
  state: 'delayed' | 'waiting' | 'active'
  alarm: Alarm | null
  controller: AbortController | null
}

interface Repeat {
  name: string
  key: string
  payload: unknown
  everyMs?: number
  cron?: CronSchedule
  alarm: Alarm | null
}

const silentLogger: QueueLogger = { warn() {}, error() {} }

/**
 * Payloads go through JSON, as they do on Redis, so a job that works here cannot depend on
 * Dates, class instances or shared mutable objects and then break under BullMQ.
 */
function asJson<T>(payload: T): T {
  const text = JSON.stringify(payload)
  return text === undefined ? (undefined as T) : JSON.parse(text)
}

function nextTick(repeat: Pick<Repeat, 'everyMs' | 'cron'>, after: number): number {
  if (repeat.cron) return nextCronTime(repeat.cron, after)
  const every = repeat.everyMs!
  // Aligned on the epoch, so ticks land on the same instants whichever process schedules them.
  return Math.floor(after / every) * every + every
}

function delay(ms: number) {
  let timer: NodeJS.Timeout
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
    timer.unref()
  })
  return { promise, cancel: () => clearTimeout(timer) }
}

/**
 * The embedded driver: jobs live in this process's memory and run in it. A restart loses the
 * jobs that were queued, delayed or waiting for a retry; owners of anything that must survive
 * (workflow waits, scheduled runs) persist it and dispatch it again at boot (README, "Queue").
 */
export class InProcessDriver implements jobTypes.QueueDriver {
  readonly name = 'in-process' as const

  #definitions = new Map<string, jobTypes.JobDefinition>()
  #jobs = new Map<string, QueuedJob>()
  #waiting = new Map<string, QueuedJob[]>()
  #active = new Map<string, number>()
  #running = new Set<Promise<void>>()
  #pumpScheduled = new Set<string>()
  #repeats = new Map<string, Repeat>()
  #closing: Promise<void> | null = null
  #closeTimeoutMs: number
  #logger: QueueLogger

  constructor(options: InProcessDriverOptions = {}) {
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 10_000
    this.#logger = options.logger ?? silentLogger
  }

  async dispatch<Payload>(name: string, payload: Payload, options: jobTypes.JobOptions = {}) {
    this.#assertOpen()
    const { delayMs, attempts, backoffMs } = jobTypes.checkJobOptions(options)
    const id = options.jobId ?? randomUUID()
    // Ids are unique per job name, as they are per queue in BullMQ.
    const key = `${name}\u0000${id}`
    if (this.#jobs.has(key)) return id

    const job: QueuedJob = {
      key,
      id,
      name,
      payload: asJson(payload),
      attempts,
      backoffMs,
      attempt: 0,
      state: 'delayed',
      alarm: null,
      controller: null,
    }
    this.#jobs.set(key, job)
    if (delayMs > 0) {
      job.alarm = new Alarm(Date.now() + delayMs, () => this.#ready(job))
    } else {
      this.#ready(job)
    }
    return id
  }

  async repeat<Payload>(name: string, payload: Payload, options: jobTypes.RepeatOptions) {
    this.#assertOpen()
    const { hasCron } = jobTypes.checkRepeatOptions(options)

    const repeat: Repeat = {
      name,
      key: options.key,
      payload: asJson(payload),
      everyMs: options.everyMs,
      cron: hasCron ? parseCron(options.cron!) : undefined,
      alarm: null,
    }
    await this.removeRepeat(name, options.key)
    this.#repeats.set(`${name}\u0000${options.key}`, repeat)
    this.#scheduleTick(repeat, Date.now())
  }

  async removeRepeat(name: string, key: string) {
    const id = `${name}\u0000${key}`
    this.#repeats.get(id)?.alarm?.cancel()
    this.#repeats.delete(id)
  }

  /** Adds definitions; may be called again with more. Jobs queued earlier start now. */
  async exists(name: string, jobId: string) {
    return this.#jobs.has(`${name}\u0000${jobId}`)
  }

  async work(definitions: jobTypes.JobDefinition[]) {
    this.#assertOpen()
    for (const definition of definitions) {
      this.#definitions.set(definition.name, definition)
      this.#schedulePump(definition.name)
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#close()
    return this.#closing
  }

  get closed() {
    return this.#closing !== null
  }

  /**
   * How many jobs of this name dispatched now would start at once: it is worked here, and
   * slots are free beyond the jobs already waiting (a caller may then take a job's first
   * step itself, knowing the job will not sit in the queue).
   */
  freeSlots(name: string) {
    const definition = this.#definitions.get(name)
    if (!definition || this.#closing) return 0
    const waiting = this.#waiting.get(name)?.length ?? 0
    const limit = definition.concurrency ?? DEFAULT_CONCURRENCY
    return Math.max(0, limit - (this.#active.get(name) ?? 0) - waiting)
  }

  /** Jobs by state, for health pages and tests. */
  counts() {
    const counts = { delayed: 0, waiting: 0, active: 0, repeats: this.#repeats.size }
    for (const job of this.#jobs.values()) counts[job.state]++
    return counts
  }

  /** The registered repeats and their next tick. */
  repeats() {
    return [...this.#repeats.values()].map((r) => ({
      name: r.name,
      key: r.key,
      nextRunAt: r.alarm?.at ?? null,
    }))
  }

  #assertOpen() {
    if (this.#closing) throw new Error('The queue is closed')
  }

  #scheduleTick(repeat: Repeat, after: number) {
    const at = nextTick(repeat, after)
    repeat.alarm = new Alarm(at, () => {
      if (this.#repeats.get(`${repeat.name}\u0000${repeat.key}`) !== repeat) return
      // The tick's time in the id keeps one tick from running twice, however often it fires.
      this.dispatch(repeat.name, repeat.payload, { jobId: `repeat:${repeat.key}:${at}` }).catch(
        (error) => this.#logger.error({ err: error, job: repeat.name }, 'Repeat tick not queued')
      )
      // From now, not from `at`: ticks missed while the process was busy are skipped, not replayed.
      this.#scheduleTick(repeat, Math.max(at, Date.now()))
    })
  }

  #ready(job: QueuedJob) {
    if (this.#closing) return
    job.alarm = null
    job.state = 'waiting'
    const queue = this.#waiting.get(job.name) ?? []
    queue.push(job)
    this.#waiting.set(job.name, queue)
    this.#schedulePump(job.name)
  }

  /** Deferred, so a handler never runs inside the dispatch() call of its caller. */
  #schedulePump(name: string) {
    if (this.#pumpScheduled.has(name)) return
    this.#pumpScheduled.add(name)
    setImmediate(() => {
      this.#pumpScheduled.delete(name)
      this.#pump(name)
    })
  }

  #pump(name: string) {
    const definition = this.#definitions.get(name)
    const queue = this.#waiting.get(name)
    if (!definition || !queue || this.#closing) return
    const limit = definition.concurrency ?? DEFAULT_CONCURRENCY
    while (queue.length > 0 && (this.#active.get(name) ?? 0) < limit) {
      this.#run(queue.shift()!, definition)
    }
  }

  #run(job: QueuedJob, definition: jobTypes.JobDefinition) {
    job.state = 'active'
    job.attempt++
    job.controller = new AbortController()
    this.#active.set(job.name, (this.#active.get(job.name) ?? 0) + 1)
    const context: jobTypes.JobContext = {
      jobId: job.id,
      attempt: job.attempt,
      signal: job.controller.signal,
    }
    const running = this.#execute(job, definition, context).finally(() => {
      job.controller = null
      this.#active.set(job.name, this.#active.get(job.name)! - 1)
      this.#running.delete(running)
      this.#schedulePump(job.name)
    })
    this.#running.add(running)
  }

  async #execute(job: QueuedJob, definition: jobTypes.JobDefinition, context: jobTypes.JobContext) {
    try {
      await definition.handler(job.payload, context)
      this.#jobs.delete(job.key)
    } catch (error) {
      if (error instanceof jobTypes.RetryLater && !this.#closing) {
        // The same job, its attempt not spent: it waits in the delayed state, not copied.
        job.attempt--
        job.state = 'delayed'
        job.alarm = new Alarm(Date.now() + Math.max(0, error.delayMs), () => this.#ready(job))
        return
      }
      if (error instanceof jobTypes.RetryLater) {
        this.#jobs.delete(job.key)
        return
      }
      await this.#failed(job, definition, context, error)
    }
  }

  async #failed(
    job: QueuedJob,
    definition: jobTypes.JobDefinition,
    context: jobTypes.JobContext,
    error: unknown
  ) {
    const bindings = { err: error, job: job.name, jobId: job.id, attempt: job.attempt }
    if (job.attempt < job.attempts && !this.#closing) {
      this.#logger.warn(bindings, `Job ${job.name} failed; retrying in ${job.backoffMs} ms`)
      job.state = 'delayed'
      job.alarm = new Alarm(Date.now() + job.backoffMs, () => this.#ready(job))
      return
    }
    this.#jobs.delete(job.key)
    // Stopped by close() rather than failed: its owner resumes it at boot, so no onFailed.
    if (job.attempt < job.attempts || context.signal.aborted) {
      this.#logger.warn(bindings, `Job ${job.name} stopped by shutdown; not retried`)
      return
    }
    this.#logger.error(bindings, `Job ${job.name} failed after ${job.attempt} attempts`)
    if (!definition.onFailed) return
    try {
      await definition.onFailed(job.payload, error, context)
    } catch (hookError) {
      this.#logger.error({ ...bindings, err: hookError }, `onFailed of job ${job.name} threw`)
    }
  }

  async #close() {
    for (const repeat of this.#repeats.values()) repeat.alarm?.cancel()
    this.#repeats.clear()
    let dropped = 0
    for (const job of this.#jobs.values()) {
      if (job.state === 'active') continue
      job.alarm?.cancel()
      this.#jobs.delete(job.key)
      dropped++
    }
    this.#waiting.clear()
    if (dropped > 0) {
      this.#logger.warn({ dropped }, `Queue closed with ${dropped} queued jobs dropped`)
    }

    if (!(await this.#settle(this.#closeTimeoutMs))) {
      // Past the deadline: ask the handlers to stop, and give them a moment to do so.
      for (const job of this.#jobs.values()) job.controller?.abort()
      if (!(await this.#settle(Math.min(1000, this.#closeTimeoutMs)))) {
        const left = [...this.#jobs.values()].map((j) => `${j.name}#${j.id}`)
        this.#logger.warn({ jobs: left }, 'Queue closed with jobs still running')
      }
    }
  }

  /** Waits until no job runs, or the timeout; true when none runs. */
  async #settle(timeoutMs: number) {
    if (this.#running.size === 0) return true
    const timeout = delay(timeoutMs)
    const idle = (async () => {
      while (this.#running.size > 0) await Promise.allSettled([...this.#running])
    })()
    await Promise.race([idle, timeout.promise])
    timeout.cancel()
    return this.#running.size === 0
  }
}
