/*
| Bounds on what a run may send back. The memory limit alone does not protect the host: a
| 32 MB isolate can still hand over tens of megabytes of logs or results per run.
*/
export const DEFAULT_TIMEOUT_MS = 10_000
export const DEFAULT_MEMORY_MB = 32
/** isolated-vm refuses smaller heaps. */
export const MIN_MEMORY_MB = 8
export const MAX_MEMORY_MB = 1024
export const MAX_TIMEOUT_MS = 10 * 60_000
export const DEFAULT_MAX_RUNS_PER_ISOLATE = 500

/*
| Sharing the pool between workspaces (docs/sandbox.md). The per-workspace cap defaults to half
| the pool size (at least 1, always below the size).
*/
/** Isolates beyond the pool size that only a workspace with no run in flight may take. */
export const DEFAULT_RESERVE = 1
export const DEFAULT_MAX_QUEUED_PER_WORKSPACE = 100
/** Three runaway runs' worth: past that, an answer now beats a run much later. */
export const DEFAULT_MAX_QUEUE_WAIT_MS = 30_000

export const MAX_LOG_ENTRIES = 100
export const MAX_LOG_MESSAGE_CHARS = 2_000
export const MAX_RESULT_CHARS = 5_000_000
export const MAX_ERROR_MESSAGE_CHARS = 2_000
export const MAX_PENDING_TIMERS = 100
export const MAX_VARIABLE_SETS = 1_000
export const MAX_VARIABLE_SET_CHARS = 5_000_000
export const MAX_VARIABLE_NAME_CHARS = 200
