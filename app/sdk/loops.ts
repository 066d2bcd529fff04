/**
 * `#sdk/loops`: server side only (it reads the environment). The operator's bound on loop
 * iterations, for plugins that repeat a path (`BotRunResult.repeat`, a workflow node's
 * `iteration`): a loop stops there even when the engines would allow more.
 */
export { loopMaxIterations } from '../services/loop_limit.js'
export { DEFAULT_LOOP_MAX_ITERATIONS } from '../engine/loops.js'
