import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/loops` (server; `#sdk/loops` in the app): the operator's bound on loop
 * iterations, for plugins that repeat a path (`BotRunResult.repeat`, a workflow node's
 * `iteration`): a loop stops there even when the engines would allow more.
 *
 * The bound on loop iterations shared by both engines: the chat engine counts the iterations
 * a turn starts, the workflow executor those of a run, and the Loop plugin stops one loop at
 * the same number. Operators change it with LOOP_MAX_ITERATIONS (start/env.ts); this is the
 * default, high enough for a workflow going through a 10,000-row sheet.
 */
export const DEFAULT_LOOP_MAX_ITERATIONS = 10_000

/**
 * LOOP_MAX_ITERATIONS, else the default: the iterations one loop may run, and all loops of a
 * chat turn or a workflow run together. Asked of the app at each call.
 */
export function loopMaxIterations(): number {
  return appPort('limits').loopIterations()
}
