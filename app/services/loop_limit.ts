import env from '#start/env'
import { DEFAULT_LOOP_MAX_ITERATIONS } from '#sdk/loops'

/**
 * LOOP_MAX_ITERATIONS, else the default: the iterations one loop may run, and all loops of a
 * chat turn or a workflow run together. Read at each call, so a test may change it. The
 * SDK's LimitsPort answers with it.
 */
export function loopMaxIterations(): number {
  const limit = env.get('LOOP_MAX_ITERATIONS')
  return typeof limit === 'number' && limit > 0 ? limit : DEFAULT_LOOP_MAX_ITERATIONS
}
