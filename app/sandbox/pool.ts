import { availableParallelism } from 'node:os'
import { performance } from 'node:perf_hooks'
import ivm from 'isolated-vm'
import { GUEST_SCRIPT } from '#sandbox/guest_source'
import {
  DEFAULT_MAX_RUNS_PER_ISOLATE,
  DEFAULT_MEMORY_MB,
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

class SandboxClosedError extends Error {
  constructor() {
    super('The sandbox is shut down')
  }
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
 * A fixed number of warm isolates. Each run gets a fresh context (so nothing leaks from one run
 * to the next) in an isolate that is reused until it has served `maxRunsPerIsolate` runs or a
 * run breached a limit. Runs beyond `size` wait for a free isolate.
 */
export class SandboxPool {
  readonly size: number
  readonly #maxRuns: number
  readonly #defaultTimeoutMs: number
  readonly #defaultMemoryMb: number
  readonly #onCatastrophicError: (message: string) => void
  #idle: IsolateSlot[] = []
  readonly #all = new Set<IsolateSlot>()
  #permitsInUse = 0
  #waiters: { resolve: () => void; reject: (error: Error) => void }[] = []
  #closed = false
  #created = 0

  constructor(options: SandboxPoolOptions = {}) {
    this.size = clampInt(options.size ?? availableParallelism(), 1, 256)
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
    const slots: IsolateSlot[] = []
    try {
      for (let i = 0; i < this.size; i++)
        slots.push(await this.#acquire(clampInt(memoryMb, MIN_MEMORY_MB, MAX_MEMORY_MB)))
    } finally {
      for (const slot of slots) this.#release(slot)
    }
  }

  stats(): {
    size: number
    isolates: number
    idle: number
    busy: number
    waiting: number
    created: number
  } {
    return {
      size: this.size,
      isolates: this.#all.size,
      idle: this.#idle.length,
      busy: this.#permitsInUse,
      waiting: this.#waiters.length,
      created: this.#created,
    }
  }

  /** Disposes every isolate; runs in flight end with a SandboxError, later runs are refused. */
  async dispose(): Promise<void> {
    this.#closed = true
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new SandboxClosedError())
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

    let slot: IsolateSlot
    try {
      slot = await this.#acquire(memoryMb)
    } catch (error) {
      if (error instanceof SandboxClosedError) return early(failure('SandboxError', error.message))
      return early(failure('SandboxError', `No isolate could be started: ${errorMessage(error)}`))
    }
    try {
      return await this.#execute(slot, code, inputJson, guestOptions, timeoutMs)
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
    }
  }

  async #execute(
    slot: IsolateSlot,
    code: string,
    inputJson: string,
    guestOptions: string,
    timeoutMs: number
  ): Promise<SandboxResult> {
    const started = performance.now()
    const recorder = new RunRecorder(started + timeoutMs)
    const sleepRef = new ivm.Reference(recorder.sleep)
    let context: ivm.Context | undefined
    let guest: ivm.Reference | undefined
    let timer: NodeJS.Timeout | undefined
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
      const raw = await Promise.race([evaluation, expired])
      if (raw === TIMED_OUT) {
        evaluation.catch(() => {})
        slot.dispose()
        outcome = timeoutFailure(timeoutMs)
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
      outcome = this.#classify(slot, error, timeoutMs)
    } finally {
      clearTimeout(timer)
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

  async #acquire(memoryMb: number): Promise<IsolateSlot> {
    if (this.#closed) throw new SandboxClosedError()
    if (this.#permitsInUse < this.size) {
      this.#permitsInUse++
    } else {
      await new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }))
    }
    try {
      const index = this.#idle.findIndex((slot) => slot.memoryMb === memoryMb && slot.alive)
      if (index >= 0) return this.#idle.splice(index, 1)[0]
      // Keep at most `size` isolates alive: an idle one with another memory limit makes room.
      while (this.#idle.length > 0 && this.#idle.length + this.#permitsInUse > this.size) {
        this.#retire(this.#idle.shift()!)
      }
      const slot = new IsolateSlot(memoryMb, this.#onCatastrophicError)
      this.#all.add(slot)
      this.#created++
      return slot
    } catch (error) {
      this.#releasePermit()
      throw error
    }
  }

  #release(slot: IsolateSlot): void {
    if (slot.alive && !this.#closed && slot.runs < this.#maxRuns) {
      this.#idle.push(slot)
      slot.prepareNextContext()
    } else {
      this.#retire(slot)
    }
    this.#releasePermit()
  }

  /** Hands the permit straight to the next waiter, so a newcomer cannot overtake the queue. */
  #releasePermit(): void {
    const waiter = this.#waiters.shift()
    if (waiter) waiter.resolve()
    else this.#permitsInUse--
  }

  #retire(slot: IsolateSlot): void {
    slot.dispose()
    this.#all.delete(slot)
    this.#idle = this.#idle.filter((s) => s !== slot)
  }
}
