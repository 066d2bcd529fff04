import type { BotRunResult, LogEntry, RunnerContext } from '#sdk/plugin'
import { valuesOf } from '#sdk/inputs'
import { loopMaxIterations } from '#sdk/loops'
import { readPath, type SurfaceRunner, type WorkflowNodeResult } from '#sdk/runner'
import type plugin from './index.js'

type Options = Parameters<SurfaceRunner<typeof plugin>>[0]['options']

/**
 * A loop's position, kept by the engines between its visits: the session (bots, across
 * turns) or the run's state (workflows). The list is read once, when the loop starts, so
 * the repeated part may change the variable it came from.
 */
interface LoopState {
  index: number
  items?: unknown[]
}

export const LOOP_MESSAGES = {
  maximum: (max: number) => `Loop: stopped after ${max} iterations (LOOP_MAX_ITERATIONS)`,
  notAList: (path: string) => `Loop: the input${path ? ` at "${path}"` : ''} is not a list`,
  noEachPath: 'Loop: the "Each iteration" exit leads nowhere; the loop is done at once',
}

function hasComparisons(condition: unknown): boolean {
  const comparisons = (condition as { comparisons?: unknown } | undefined)?.comparisons
  return Array.isArray(comparisons) && comparisons.length > 0
}

function timesOf(options: Options): number {
  const times = Math.floor(Number(options.times ?? 0))
  return Number.isFinite(times) && times > 0 ? times : 0
}

type Step =
  | { kind: 'iterate'; state: LoopState; item: unknown }
  | { kind: 'done'; iterations: number; error?: LogEntry }
  | { kind: 'break'; iterations: number }

/**
 * What the loop does at one visit, the same for both surfaces: `previous` is the state of
 * the iteration that just ended (undefined when the loop starts), `list` reads the list
 * when it starts and `holds` evaluates a condition of the options.
 */
function step(
  options: Options,
  previous: LoopState | undefined,
  list: () => unknown[],
  holds: (condition: unknown) => boolean
): Step {
  if (previous && hasComparisons(options.breakWhen) && holds(options.breakWhen)) {
    return { kind: 'break', iterations: previous.index + 1 }
  }
  const index = previous ? previous.index + 1 : 0
  const items = previous ? previous.items : options.mode === 'list' ? list() : undefined
  const mode = options.mode ?? 'list'
  const more =
    mode === 'list'
      ? index < (items?.length ?? 0)
      : mode === 'count'
        ? index < timesOf(options)
        : !(hasComparisons(options.until) && holds(options.until))
  if (!more) return { kind: 'done', iterations: index }
  const max = loopMaxIterations()
  if (index >= max) {
    return {
      kind: 'done',
      iterations: index,
      error: { status: 'error', description: LOOP_MESSAGES.maximum(max) },
    }
  }
  return { kind: 'iterate', state: { index, items }, item: items?.[index] }
}

function runInBot(context: RunnerContext<Options>): BotRunResult {
  const { options, variables } = context
  const bot = context.bot!
  const exits = bot.block.items ?? []
  const exit = (name: string) => exits.find((item) => item.exit === name)?.outgoingEdgeId
  // An exit left unconnected goes on with the blocks after the Loop in its group.
  const leave = (edgeId: string | undefined, logs: LogEntry[] = []): BotRunResult => ({
    ...(edgeId ? { outgoingEdgeId: edgeId } : {}),
    logs,
  })
  const next = step(
    options,
    bot.repeated?.state as LoopState | undefined,
    () => (options.listVariableId ? valuesOf(variables.get(options.listVariableId)) : []),
    (condition) => bot.evaluateCondition(condition)
  )
  if (next.kind === 'break') return leave(exit('break') ?? exit('done'))
  if (next.kind === 'done') return leave(exit('done'), next.error ? [next.error] : [])
  const each = exit('each')
  if (!each) {
    return leave(exit('done'), [{ status: 'info', description: LOOP_MESSAGES.noEachPath }])
  }
  const variablesToSet: BotRunResult['variablesToSet'] = []
  if (options.indexVariableId) {
    variablesToSet.push({ id: options.indexVariableId, value: String(next.state.index) })
  }
  if (options.itemVariableId && options.mode !== 'count' && options.mode !== 'until') {
    variablesToSet.push({ id: options.itemVariableId, value: next.item as string })
  }
  return { variablesToSet, repeat: { outgoingEdgeId: each, state: next.state } }
}

function runInWorkflow(context: RunnerContext<Options>): WorkflowNodeResult {
  const { options } = context
  const workflow = (context as Parameters<SurfaceRunner>[0]).workflow!
  const branch = (name: string) =>
    workflow.conditions.find((condition) => (condition as { exit?: string }).exit === name)?.id ??
    null
  // The state of the last visit counts only when the repeated part led back here: a loop
  // reached again from before it starts over.
  const previous = workflow.looped ? (workflow.memory as LoopState | undefined) : undefined
  const path = String(options.listPath ?? '').trim()
  let notAList = false
  const next = step(
    options,
    previous,
    () => {
      const value = path ? readPath(workflow.input, path) : workflow.input
      if (Array.isArray(value)) return value
      notAList = true
      return []
    },
    (condition) => workflow.evaluateCondition(condition)
  )
  if (notAList) return { logs: [{ status: 'error', description: LOOP_MESSAGES.notAList(path) }] }
  if (next.kind === 'break') {
    return { output: { iterations: next.iterations, broken: true }, conditionId: branch('break') }
  }
  if (next.kind === 'done') {
    return {
      output: { iterations: next.iterations, broken: false },
      conditionId: branch('done'),
      logs: next.error ? [next.error] : [],
    }
  }
  const output =
    options.mode === 'list' || options.mode === undefined
      ? { item: next.item, index: next.state.index }
      : { index: next.state.index }
  return { output, conditionId: branch('each'), memory: next.state, iteration: true }
}

/** One visit of the Loop: start, next iteration, done or break (index.ts). */
export const run: SurfaceRunner<typeof plugin> = (context) =>
  context.surface === 'bot' ? runInBot(context) : runInWorkflow(context)
