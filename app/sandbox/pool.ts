import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import ivm from 'isolated-vm'
import { GUEST_SCRIPT } from '#sandbox/guest_source'
import { FairScheduler, SandboxRefusal, type WorkspaceLoad } from '#sandbox/fair_scheduler'
import {
  DEFAULT_MAX_QUEUE_WAIT_MS,
  DEFAULT_MAX_QUEUED_PER_WORKSPACE,
  DEFAULT_MAX_RUNS_PER_ISOLATE,
  DEFAULT_MEMORY_MB,
  DEFAULT_RESERVE,
  DEFAULT_TIMEOUT_MS,
  MAX_ERROR_MESSAGE_CHARS,
  MAX_LOG_ENTRIES,
  MAX_LOG_MESSAGE_CHARS,
  MAX_MEMORY_MB,
  MAX_PENDING_TIMERS,
  MAX_RESULT_CHARS,
  MAX_TIMEOUT_MS,
  MAX_VARIABLE_NAME_CHARS,
  MAX_VARIABLE_SET_CHARS,
  MAX_VARIABLE_SETS,
  MIN_MEMORY_MB,
} from '#sandbox/limits'
import type {
  JsonValue,
  SandboxErrorInfo,
  SandboxLog,
  SandboxLogLevel,
  SandboxPoolOptions,
  SandboxResult,
  SandboxRunOptions,
  SandboxVariableSet,
} from '#sandbox/types'

type Outcome = { ok: true; value: JsonValue | undefined } | { ok: false; error: SandboxErrorInfo }

const LOG_LEVELS = new Set<string>(['log', 'info', 'warn', 'error'])
const TIMED_OUT = Symbol('timed out')
const ABORTED = Symbol('aborted')
/** The key of runs that name no workspace: they share one queue and one cap. */
const NO_WORKSPACE = ''
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
/** Names that cannot be (or must not be) bound as parameters of the user's function. */
const UNBINDABLE = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected ' +
    'public await async arguments eval undefined NaN Infinity variables args'
  ).split(' ')
)

function closedError(): SandboxRefusal {
  return new SandboxRefusal('SandboxError', 'The sandbox is shut down')
}

function clampInt(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min
  return Math.min(max, Math.max(min, Math.round(value)))
}

function failure(name: string, message: string): Outcome {
  return { ok: false, error: { name, message } }
}

function timeoutFailure(timeoutMs: number): Outcome {
  return failure('TimeoutError', `Script timed out after ${timeoutMs} ms`)
}

function memoryFailure(memoryMb: number): Outcome {
  return failure('MemoryLimitError', `Script exceeded the memory limit of ${memoryMb} MB`)
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Own `__proto__` keys are harmless in the parsed object but poison any caller that merges it. */
function parseGuestJson(text: string): unknown {
  if (!text.includes('"__proto__"')) return JSON.parse(text)
  return JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value))
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** The guest answers with a tagged string; anything else means the guest was subverted. */
function decodeGuestResult(raw: unknown): Outcome {
  if (typeof raw !== 'string' || raw.length === 0) {
    return failure('SandboxError', 'The script produced an unreadable result')
  }
  if (raw.length > MAX_RESULT_CHARS + 1) {
    return failure('RangeError', `The script result is larger than ${MAX_RESULT_CHARS} characters`)
  }
  try {
    switch (raw[0]) {
      case 'u':
        return { ok: true, value: undefined }
      case 'v':
        return { ok: true, value: parseGuestJson(raw.slice(1)) as JsonValue }
      case 'e': {
        const info = parseGuestJson(raw.slice(1)) as Partial<SandboxErrorInfo> | null
        const name = typeof info?.name === 'string' && info.name ? info.name.slice(0, 100) : 'Error'
        const message = typeof info?.message === 'string' ? info.message : ''
        return failure(name, truncate(message, MAX_ERROR_MESSAGE_CHARS))
      }
    }
  } catch {
    // falls through: malformed JSON is reported like any other unreadable answer
  }
  return failure('SandboxError', 'The script produced an unreadable result')
}

/**
 * Host side of one run: what the guest may call back into. Every entry point re-checks its
 * limits because the guest-side checks run in code the user can tamper with.
 */
class RunRecorder {
  readonly logs: SandboxLog[] = []
  readonly variablesSet: SandboxVariableSet[] = []
  /** The first refused setVariable call: the run's variable changes are then all dropped. */
  refusedSet: string | undefined
  #setChars = 0
  #open = true
  #timers = new Set<NodeJS.Timeout>()

  constructor(private readonly deadline: number) {}

  log = (level: unknown, message: unknown): void => {
    if (!this.#open || this.logs.length > MAX_LOG_ENTRIES) return
    this.logs.push({
      level: (LOG_LEVELS.has(level as string) ? level : 'log') as SandboxLogLevel,
      message: truncate(
        typeof message === 'string' ? message : String(message),
        MAX_LOG_MESSAGE_CHARS
      ),
    })
  }

  /** Returns a refusal message, or undefined when the value was recorded. */
  setVariable = (name: unknown, json: unknown): string | undefined => {
    const refusal = this.#record(name, json)
    if (refusal) this.refusedSet ??= refusal
    return refusal
  }

  #record(name: unknown, json: unknown): string | undefined {
    if (!this.#open) return 'The run is over'
    if (typeof name !== 'string' || name.length > MAX_VARIABLE_NAME_CHARS) {
      return `setVariable expects a name of at most ${MAX_VARIABLE_NAME_CHARS} characters`
    }
    // `false`: the guest found the value over the limit and did not send it.
    if (json === false) {
      return `setVariable received a value larger than ${MAX_VARIABLE_SET_CHARS} characters`
    }
    if (json !== null && typeof json !== 'string') return 'setVariable received an unreadable value'
    const size = name.length + (json?.length ?? 0)
    if (
      this.variablesSet.length >= MAX_VARIABLE_SETS ||
      this.#setChars + size > MAX_VARIABLE_SET_CHARS
    ) {
      return `setVariable was called too often or with too much data (limits: ${MAX_VARIABLE_SETS} calls, ${MAX_VARIABLE_SET_CHARS} characters)`
    }
    let value: JsonValue | undefined
    try {
      value = json === null ? undefined : (parseGuestJson(json) as JsonValue)
    } catch {
      return 'setVariable received an unreadable value'
    }
    this.#setChars += size
    this.variablesSet.push({ name, value })
    return undefined
  }

  /** Backs the guest's setTimeout; never outlives the run's deadline. */
  sleep = (ms: unknown): Promise<void> =>
    new Promise<void>((resolve) => {
      if (!this.#open) return
      const wanted = typeof ms === 'number' && ms > 0 ? ms : 0
      const delay = Math.min(wanted, Math.max(0, this.deadline - performance.now()))
      const timer = setTimeout(() => {
        this.#timers.delete(timer)
        resolve()
      }, delay)
      this.#timers.add(timer)
    })

  close(): void {
    this.#open = false
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }
}

class IsolateSlot {
  readonly isolate: ivm.Isolate
  runs = 0
  /** Set when the host disposed the isolate itself, so the disposal is not read as a memory breach. */
  killed = false
  #nextContext: Promise<ivm.Context | null> | null = null
  #guest: Promise<ivm.Script> | null = null

  constructor(
    readonly memoryMb: number,
    onCatastrophicError: (message: string) => void
  ) {
    this.isolate = new ivm.Isolate({ memoryLimit: memoryMb, onCatastrophicError })
  }

  get alive(): boolean {
    return !this.isolate.isDisposed
  }

  guestScript(): Promise<ivm.Script> {
    this.#guest ??= this.isolate.compileScript(GUEST_SCRIPT, { filename: 'sandbox:guest' })
    return this.#guest
  }

  async takeContext(): Promise<ivm.Context> {
    const prepared = this.#nextContext
    this.#nextContext = null
    return (prepared && (await prepared)) || this.isolate.createContext()
  }

  /** Creating a context costs about half a millisecond; doing it while idle takes it off the next run. */
  prepareNextContext(): void {
    if (this.#nextContext || !this.alive) return
    this.#nextContext = this.isolate.createContext().catch(() => null)
  }

  dispose(): void {
    this.killed = true
    if (!this.isolate.isDisposed) this.isolate.dispose()
  }
}

/**
 * A bounded set of warm isolates shared by every workspace. Each run gets a fresh context (so
 * nothing leaks from one run to the next) in an isolate that is reused until it has served
 * `maxRunsPerIsolate` runs or a run breached a limit.
 *
 * Who runs when is decided by a FairScheduler (docs/sandbox.md, "Sharing the pool between
 * workspaces"): at most `maxPerWorkspace` runs of one workspace at once, `size` runs in
 * general plus `reserve` for a workspace that has nothing in flight, and waiting runs served
 * workspace by workspace, so one workspace's runaway code cannot hold every isolate.
 */
export class SandboxPool {
  readonly size: number
  readonly reserve: number
  readonly maxPerWorkspace: number
  readonly #maxRuns: number
  readonly #defaultTimeoutMs: number
  readonly #defaultMemoryMb: number
  readonly #onCatastrophicError: (message: string) => void
  readonly #scheduler: FairScheduler
  #idle: IsolateSlot[] = []
  readonly #all = new Set<IsolateSlot>()
  #closed = false
  #created = 0

  constructor(options: SandboxPoolOptions = {}) {
    this.size = clampInt(options.size ?? Math.max(2, availableParallelism()), 1, 256)
    this.reserve = clampInt(options.reserve ?? DEFAULT_RESERVE, 0, this.size)
    // Below the pool size, so one workspace always leaves an isolate to the others.
    this.maxPerWorkspace = clampInt(
      options.maxPerWorkspace ?? Math.floor(this.size / 2),
      1,
      Math.max(1, this.size - 1)
    )
    this.#maxRuns = clampInt(
      options.maxRunsPerIsolate ?? DEFAULT_MAX_RUNS_PER_ISOLATE,
      1,
      Number.MAX_SAFE_INTEGER
    )
    this.#defaultTimeoutMs = clampInt(
      options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      1,
      MAX_TIMEOUT_MS
    )
    this.#defaultMemoryMb = clampInt(
      options.defaultMemoryMb ?? DEFAULT_MEMORY_MB,
      MIN_MEMORY_MB,
      MAX_MEMORY_MB
    )
    this.#onCatastrophicError =
      options.onCatastrophicError ??
      ((message) => console.error(`[sandbox] isolate failure: ${message}`))
    this.#scheduler = new FairScheduler({
      size: this.size,
      reserve: this.reserve,
      perWorkspace: this.maxPerWorkspace,
      maxQueued: clampInt(
        options.maxQueuedPerWorkspace ?? DEFAULT_MAX_QUEUED_PER_WORKSPACE,
        0,
        Number.MAX_SAFE_INTEGER
      ),
      maxWaitMs: clampInt(options.maxQueueWaitMs ?? DEFAULT_MAX_QUEUE_WAIT_MS, 1, 2 ** 31 - 1),
    })
  }

  /** Runs `code` as the body of an async function: `return` gives the value, `await` works. */
  run(code: string, options: SandboxRunOptions = {}): Promise<SandboxResult> {
    return this.#run(code, options, false)
  }

  /**
   * Evaluates an expression (`{{= expr =}}`). Code that is not an expression, such as
   * `const a = 1; return a`, is run as a function body instead.
   */
  evaluate(
    expression: string,
    variables: Record<string, unknown> = {},
    options: Omit<SandboxRunOptions, 'variables'> = {}
  ): Promise<SandboxResult> {
    const source =
      typeof expression === 'string' ? expression.trim().replace(/;+$/, '') : expression
    return this.#run(source, { ...options, variables }, true)
  }

  /** Creates isolates ahead of the first runs, so the first user does not pay the cold start. */
  async warm(memoryMb = this.#defaultMemoryMb): Promise<void> {
    const limit = clampInt(memoryMb, MIN_MEMORY_MB, MAX_MEMORY_MB)
    while (!this.#closed && this.#all.size < this.size) {
      const slot = this.#newSlot(limit)
      this.#idle.push(slot)
      slot.prepareNextContext()
    }
  }

  stats(): {
    size: number
    reserve: number
    maxPerWorkspace: number
    isolates: number
    idle: number
    busy: number
    waiting: number
    created: number
    /** Runs in flight and waiting, per workspace that has any ('' for runs that name none). */
    workspaces: Record<string, WorkspaceLoad>
  } {
    return {
      size: this.size,
      reserve: this.reserve,
      maxPerWorkspace: this.maxPerWorkspace,
      isolates: this.#all.size,
      idle: this.#idle.length,
      busy: this.#scheduler.running,
      waiting: this.#scheduler.waiting,
      created: this.#created,
      workspaces: this.#scheduler.load(),
    }
  }

  /** Disposes every isolate; runs in flight end with a SandboxError, later runs are refused. */
  async dispose(): Promise<void> {
    this.#closed = true
    this.#scheduler.close(closedError())
    for (const slot of [...this.#all]) this.#retire(slot)
    this.#idle = []
  }

  async #run(
    code: unknown,
    options: SandboxRunOptions,
    expression: boolean
  ): Promise<SandboxResult> {
    const started = performance.now()
    const early = (outcome: Outcome): SandboxResult => ({
      ...outcome,
      logs: [],
      variablesSet: [],
      durationMs: 0,
    })
    if (typeof code !== 'string') return early(failure('TypeError', 'The script must be a string'))

    const timeoutMs = clampInt(options.timeoutMs ?? this.#defaultTimeoutMs, 1, MAX_TIMEOUT_MS)
    const memoryMb = clampInt(
      options.memoryMb ?? this.#defaultMemoryMb,
      MIN_MEMORY_MB,
      MAX_MEMORY_MB
    )
    const args = options.args ?? {}
    let inputJson: string
    try {
      // A JSON round trip is the copy: nothing the guest receives can point back at a host object.
      inputJson = JSON.stringify({ variables: options.variables ?? {}, args })
    } catch (error) {
      return early(
        failure(
          'TypeError',
          `The variables could not be copied into the sandbox: ${errorMessage(error)}`
        )
      )
    }
    const argNames =
      args && typeof args === 'object'
        ? Object.keys(args).filter((n) => IDENTIFIER.test(n) && !UNBINDABLE.has(n))
        : []
    const guestOptions = JSON.stringify({
      argNames,
      expression,
      maxLogs: MAX_LOG_ENTRIES,
      maxLogChars: MAX_LOG_MESSAGE_CHARS,
      maxTimers: MAX_PENDING_TIMERS,
      maxSetChars: MAX_VARIABLE_SET_CHARS,
    })

    const workspace = typeof options.workspaceId === 'string' ? options.workspaceId : NO_WORKSPACE
    try {
      await this.#scheduler.acquire(workspace, options.signal)
    } catch (error) {
      if (error instanceof SandboxRefusal) return early(failure(error.name, error.message))
      return early(failure('SandboxError', errorMessage(error)))
    }
    if (this.#closed) {
      // Disposed between the admission and this turn of the event loop.
      this.#scheduler.release(workspace)
      const closed = closedError()
      return early(failure(closed.name, closed.message))
    }
    let slot: IsolateSlot
    try {
      slot = this.#takeSlot(memoryMb)
    } catch (error) {
      this.#scheduler.release(workspace)
      return early(failure('SandboxError', `No isolate could be started: ${errorMessage(error)}`))
    }
    try {
      return await this.#execute(slot, code, inputJson, guestOptions, timeoutMs, options.signal)
    } catch (error) {
      // #execute classifies every failure it knows; reaching here means the isolate is suspect.
      slot.dispose()
      return {
        ...failure('SandboxError', errorMessage(error)),
        logs: [],
        variablesSet: [],
        durationMs: performance.now() - started,
      } as SandboxResult
    } finally {
      this.#release(slot)
      this.#scheduler.release(workspace)
    }
  }

  async #execute(
    slot: IsolateSlot,
    code: string,
    inputJson: string,
    guestOptions: string,
    timeoutMs: number,
    signal: AbortSignal | undefined
  ): Promise<SandboxResult> {
    const started = performance.now()
    const recorder = new RunRecorder(started + timeoutMs)
    const sleepRef = new ivm.Reference(recorder.sleep)
    let context: ivm.Context | undefined
    let guest: ivm.Reference | undefined
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    let outcome: Outcome

    try {
      const script = await slot.guestScript()
      context = await slot.takeContext()
      slot.runs++
      guest = (await script.run(context, { reference: true, timeout: timeoutMs })) as ivm.Reference
      const evaluation = guest.apply(
        undefined,
        [
          sleepRef,
          new ivm.Callback(recorder.log),
          new ivm.Callback(recorder.setVariable),
          inputJson,
          code,
          guestOptions,
        ],
        { timeout: timeoutMs, result: { promise: true, copy: true } }
      )
      // isolated-vm's own timeout stops synchronous code and microtasks only; code resumed by a
      // host timer (setTimeout) or a promise that never settles needs this wall-clock deadline.
      const expired = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(
          () => resolve(TIMED_OUT),
          Math.max(0, started + timeoutMs - performance.now())
        )
      })
      // A caller that gives up (the workflow run was stopped, the worker shuts down) frees the
      // isolate now instead of at the time-out: disposing is the only way to stop a busy thread.
      const aborted = new Promise<typeof ABORTED>((resolve) => {
        if (!signal) return
        onAbort = () => resolve(ABORTED)
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      })
      const raw = await Promise.race([evaluation, expired, aborted])
      if (raw === TIMED_OUT || raw === ABORTED) {
        evaluation.catch(() => {})
        slot.dispose()
        outcome =
          raw === TIMED_OUT
            ? timeoutFailure(timeoutMs)
            : failure('AbortError', 'The script was cancelled while it ran')
      } else {
        outcome = decodeGuestResult(raw)
        if (
          !outcome.ok &&
          outcome.error.name === 'RangeError' &&
          /allocation failed/i.test(outcome.error.message)
        ) {
          // V8 refuses a large ArrayBuffer at the limit before the heap check fires: same breach.
          slot.dispose()
          outcome = memoryFailure(slot.memoryMb)
        }
      }
    } catch (error) {
      outcome =
        signal?.aborted && slot.killed
          ? failure('AbortError', 'The script was cancelled while it ran')
          : this.#classify(slot, error, timeoutMs)
    } finally {
      clearTimeout(timer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
      recorder.close()
      sleepRef.release()
      if (guest && slot.alive) guest.release()
      if (context && slot.alive) context.release()
    }

    return {
      ...outcome,
      logs: recorder.logs,
      variablesSet: recorder.variablesSet,
      refusedSet: recorder.refusedSet,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    } as SandboxResult
  }

  #classify(slot: IsolateSlot, error: unknown, timeoutMs: number): Outcome {
    const message = errorMessage(error)
    if (!slot.alive && !slot.killed) return memoryFailure(slot.memoryMb)
    if (/memory limit/i.test(message)) {
      slot.dispose()
      return memoryFailure(slot.memoryMb)
    }
    if (slot.killed)
      return failure('SandboxError', 'The sandbox was shut down before the script finished')
    // Any limit breach retires the isolate: a terminated script may leave V8 state behind.
    slot.dispose()
    if (message === 'Script execution timed out.') return timeoutFailure(timeoutMs)
    const name = error instanceof Error && error.name ? error.name : 'SandboxError'
    return failure(name, truncate(message, MAX_ERROR_MESSAGE_CHARS))
  }

  /** An isolate for a run the scheduler admitted: an idle one with the right limit, or a new one. */
  #takeSlot(memoryMb: number): IsolateSlot {
    const index = this.#idle.findIndex((slot) => slot.memoryMb === memoryMb && slot.alive)
    if (index >= 0) return this.#idle.splice(index, 1)[0]
    // Keep no more isolates alive than may run at once: an idle one with another memory
    // limit makes room.
    const limit = this.size + this.reserve
    while (this.#idle.length > 0 && this.#idle.length + this.#scheduler.running > limit) {
      this.#retire(this.#idle.shift()!)
    }
    return this.#newSlot(memoryMb)
  }

  #newSlot(memoryMb: number): IsolateSlot {
    const slot = new IsolateSlot(memoryMb, this.#onCatastrophicError)
    this.#all.add(slot)
    this.#created++
    return slot
  }

  #release(slot: IsolateSlot): void {
    if (slot.alive && !this.#closed && slot.runs < this.#maxRuns) {
      this.#idle.push(slot)
      slot.prepareNextContext()
    } else {
      this.#retire(slot)
    }
  }

  #retire(slot: IsolateSlot): void {
    slot.dispose()
    this.#all.delete(slot)
    this.#idle = this.#idle.filter((s) => s !== slot)
  }
}
