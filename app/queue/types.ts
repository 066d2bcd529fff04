/**
 * The queue contract (docs/architecture.md (Runtime modes)): jobs are named handlers; the in-process driver
 * (embedded default) and the BullMQ driver (QUEUE_DRIVER=bullmq) run the same handlers.
 * Callers use `dispatch` from '#queue/queue' and register handlers with `defineJob`.
 */

export interface JobOptions {
  /** Run no sooner than this many milliseconds from now (waits, retries). */
  delayMs?: number
  /** A job with the same id is not queued twice while the first one exists. */
  jobId?: string
  /** Attempts in all (first run included) before the job counts as failed. Default 1. */
  attempts?: number
  /** Milliseconds between attempts. */
  backoffMs?: number
}

/** Options as both drivers take them: out-of-range values are the caller's error, defaults filled in. */
export function checkJobOptions(options: JobOptions) {
  const { delayMs = 0, attempts = 1, backoffMs = 0, jobId } = options
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new TypeError(`delayMs must be a number >= 0 (got ${delayMs})`)
  }
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new TypeError(`attempts must be an integer >= 1 (got ${attempts})`)
  }
  if (!Number.isFinite(backoffMs) || backoffMs < 0) {
    throw new TypeError(`backoffMs must be a number >= 0 (got ${backoffMs})`)
  }
  if (jobId !== undefined && (typeof jobId !== 'string' || jobId === '')) {
    throw new TypeError('jobId must be a non-empty string')
  }
  return { delayMs, attempts, backoffMs }
}

/** A repeat names one schedule (every N ms or a cron pattern) and a key, whichever driver. */
export function checkRepeatOptions(options: RepeatOptions) {
  const hasEvery = options.everyMs !== undefined
  const hasCron = options.cron !== undefined
  if (hasEvery === hasCron) throw new TypeError('A repeat needs either everyMs or cron')
  if (hasEvery && (!Number.isFinite(options.everyMs) || options.everyMs! <= 0)) {
    throw new TypeError(`everyMs must be a number > 0 (got ${options.everyMs})`)
  }
  if (!options.key) throw new TypeError('A repeat needs a key')
  return { hasEvery, hasCron }
}

export interface JobContext {
  jobId: string
  /** 1 for the first run. */
  attempt: number
  /** Aborted when the worker shuts down; long handlers should stop and let it retry. */
  signal: AbortSignal
}

/**
 * Thrown by a handler to run the same job again later without spending an attempt (a run
 * waiting for a concurrency slot). The job keeps its id meanwhile, so it waits in one place:
 * a dispatch with that id stays a no-op, and no copy piles up in the delayed set.
 */
export class RetryLater extends Error {
  constructor(readonly delayMs: number) {
    super(`Retry in ${delayMs} ms`)
    this.name = 'RetryLater'
  }
}

export type JobHandler<Payload = any> = (payload: Payload, context: JobContext) => Promise<unknown>

export interface JobDefinition<Payload = any> {
  name: string
  handler: JobHandler<Payload>
  /** Jobs of this name run at most this many at a time per worker. Default 5. */
  concurrency?: number
  /**
   * Called once when the last attempt has failed, so the owner can record the failure (a
   * workflow run marked failed rather than left running). Not called for a job stopped by
   * shutdown: that one is retried (BullMQ) or resumed by its owner at boot (in-process).
   */
  onFailed?: (payload: Payload, error: unknown, context: JobContext) => Promise<unknown> | void
}

export interface RepeatOptions {
  /** Every N milliseconds, or a cron pattern (5 fields, UTC). */
  everyMs?: number
  cron?: string
  /** Replaces an earlier repeat with the same key (e.g. the workflow id). */
  key: string
}

export interface QueueDriver {
  readonly name: 'in-process' | 'bullmq'
  dispatch<Payload>(name: string, payload: Payload, options?: JobOptions): Promise<string>
  /** Repeating jobs (schedule triggers); a tick missed while down is not run twice. */
  repeat<Payload>(name: string, payload: Payload, options: RepeatOptions): Promise<void>
  removeRepeat(name: string, key: string): Promise<void>
  /** Whether a job of this name with this id is waiting, delayed or running. */
  exists(name: string, jobId: string): Promise<boolean>
  /** Starts processing (web process in-process; `node ace queue:work` for BullMQ). */
  work(definitions: JobDefinition[]): Promise<void>
  /** Lets in-flight jobs finish (or hands them back) and stops. */
  close(): Promise<void>
}
