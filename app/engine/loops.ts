/**
 * The bound on loop iterations shared by both engines: the chat engine counts the iterations
 * a turn starts, the workflow executor those of a run, and the Loop plugin stops one loop at
 * the same number. Operators change it with LOOP_MAX_ITERATIONS (start/env.ts); this is the
 * default, high enough for a workflow going through a 10,000-row sheet.
 */
export const DEFAULT_LOOP_MAX_ITERATIONS = 10_000
