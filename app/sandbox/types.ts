/*
| Public shapes of the sandbox. Plain data only, so results can be stored in run logs or sent
| through a queue as they are.
*/

/** A JSON-compatible value: what crosses the sandbox boundary in either direction. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

export type SandboxLogLevel = 'log' | 'info' | 'warn' | 'error'

export interface SandboxLog {
  level: SandboxLogLevel
  message: string
}

export interface SandboxRunOptions {
  /** Copied in (through JSON) and exposed to the code as `variables`. */
  variables?: Record<string, unknown>
  /**
   * Copied in and exposed as `args`; keys that are valid identifiers are also bound as
   * parameters, so tool code can say `return city.toUpperCase()` for an argument `city`.
   */
  args?: Record<string, unknown>
  /** Wall-clock limit for the whole run, awaited promises included. Default 10 000 ms. */
  timeoutMs?: number
  /** Heap limit of the isolate that runs the code, at least 8. Default 32 MB. */
  memoryMb?: number
  /**
   * The tenant the code belongs to: runs are capped and queued per workspace. Runs that name
   * none share one anonymous workspace (tests, benchmarks).
   */
  workspaceId?: string
  /**
   * Gives up on the run: a waiting run leaves the queue, a running one has its isolate
   * disposed. Either way the result is `{ ok: false, error: { name: 'AbortError' } }`.
   */
  signal?: AbortSignal
}

/** What the app's own call sites must say: which workspace the code belongs to. */
export type WorkspaceRunOptions = SandboxRunOptions & { workspaceId: string }

export interface SandboxErrorInfo {
  /**
   * The JavaScript error name (`TypeError`, `SyntaxError`, ...) or `TimeoutError`,
   * `MemoryLimitError`, `SandboxError`, `SandboxBusyError` (the workspace's queue is full or the
   * wait too long), `AbortError` (the caller's signal aborted).
   */
  name: string
  message: string
}

/** A `setVariable(name, value)` call made by the code, in call order. */
export interface SandboxVariableSet {
  name: string
  value: JsonValue | undefined
}

interface SandboxOutcomeBase {
  logs: SandboxLog[]
  variablesSet: SandboxVariableSet[]
  /** Why a setVariable call was refused (limits), if one was, even when the code caught it. */
  refusedSet?: string
  /** Time spent in the sandbox, waiting for a free isolate excluded. */
  durationMs: number
}

export interface SandboxSuccess extends SandboxOutcomeBase {
  ok: true
  value: JsonValue | undefined
}

export interface SandboxFailure extends SandboxOutcomeBase {
  ok: false
  error: SandboxErrorInfo
}

export type SandboxResult = SandboxSuccess | SandboxFailure

export interface SandboxPoolOptions {
  /** Runs executed (and isolates kept) at once. Default: the number of CPU cores, at least 2. */
  size?: number
  /** Runs of one workspace at once, below `size`. Default: half of `size`, at least 1. */
  maxPerWorkspace?: number
  /** Isolates beyond `size` only for a workspace with no run in flight. Default 1. */
  reserve?: number
  /** Runs of one workspace that may wait at once; more are refused (SandboxBusyError). Default 100. */
  maxQueuedPerWorkspace?: number
  /** How long a run may wait for an isolate before it is refused (SandboxBusyError). Default 30 000 ms. */
  maxQueueWaitMs?: number
  /** An isolate is replaced after this many runs, so slow leaks in V8 never build up. Default 500. */
  maxRunsPerIsolate?: number
  defaultTimeoutMs?: number
  defaultMemoryMb?: number
  /** Called when V8 reports an unrecoverable isolate failure. Default: printed to stderr. */
  onCatastrophicError?: (message: string) => void
}
