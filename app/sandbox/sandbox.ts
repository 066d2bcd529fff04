/*
| The process-wide sandbox: one lazily created pool shared by HTTP requests, queue workers and
| ace commands. Nothing here depends on the HTTP context or the container.
*/
import { SandboxPool } from '#sandbox/pool'
import type { SandboxPoolOptions, SandboxResult, WorkspaceRunOptions } from '#sandbox/types'

export { SandboxPool } from '#sandbox/pool'
export type * from '#sandbox/types'

let pool: SandboxPool | null = null
let poolOptions: SandboxPoolOptions = {}

/** Options for the shared pool; takes effect for the pool created after the next disposeSandbox(). */
export function configureSandbox(options: SandboxPoolOptions): void {
  poolOptions = { ...options }
}

export function sandboxPool(): SandboxPool {
  pool ??= new SandboxPool(poolOptions)
  return pool
}

/**
 * Runs user JavaScript as the body of an async function with `variables` (and `args`) in scope.
 * Never throws for anything the code does: failures come back as `{ ok: false, error }`.
 * The workspace is required: it is what keeps one tenant's runaway code from delaying the others.
 */
export function runInSandbox(code: string, options: WorkspaceRunOptions): Promise<SandboxResult> {
  return sandboxPool().run(code, options)
}

/** Evaluates a `{{= expression =}}`; statements with an explicit `return` are accepted too. */
export function evaluateExpression(
  expression: string,
  variables: Record<string, unknown>,
  options: Omit<WorkspaceRunOptions, 'variables'>
): Promise<SandboxResult> {
  return sandboxPool().evaluate(expression, variables, options)
}

/** Disposes the shared pool's isolates. A later run starts a new pool. */
export async function disposeSandbox(): Promise<void> {
  const current = pool
  pool = null
  await current?.dispose()
}
