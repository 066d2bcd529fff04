import type {
  AiUsage,
  RunnerAi,
  BotRunContext,
  BotRunResult,
  ParsedAnswer,
  InputAnswer,
  LogEntry,
  RunnerBlock,
  RunnerContext,
  RunnerVariables,
  VariableValue,
} from '#plugins/define_plugin'

/**
 * Contexts for runner unit tests: what the chat engine gives a bubble or input runner,
 * without the app (no database, no sandbox, no HTTP).
 */

export interface TestVariable {
  id: string
  name: string
  value?: VariableValue
}

export function memoryVariables(initial: TestVariable[] = []): RunnerVariables {
  const variables = initial.map((variable) => ({ ...variable }))
  return {
    get(idOrName) {
      return (
        variables.find((v) => v.id === idOrName) ?? variables.find((v) => v.name === idOrName)
      )?.value
    },
    set(id, value) {
      const found = variables.find((v) => v.id === id)
      if (found) found.value = value
    },
    list: () => variables.map(({ id, name, value }) => ({ id, name, value })),
  }
}

/**
 * A small stand-in for the engine's condition evaluation: enough operators for display
 * conditions in tests.
 */
function evaluateWith(variables: RunnerVariables) {
  return (condition: unknown) => {
    const { comparisons = [], logicalOperator = 'AND' } = (condition ?? {}) as {
      comparisons?: { variableId?: string; comparisonOperator?: string; value?: string }[]
      logicalOperator?: 'AND' | 'OR'
    }
    const results = comparisons.map(({ variableId, comparisonOperator, value }) => {
      const current = variableId ? variables.get(variableId) : undefined
      const text = current === null || current === undefined ? '' : String(current)
      switch (comparisonOperator) {
        case 'Not equal':
          return text !== (value ?? '')
        case 'Is set':
          return text !== ''
        case 'Is empty':
          return text === ''
        default:
          return text === (value ?? '')
      }
    })
    return logicalOperator === 'OR' ? results.some(Boolean) : results.every(Boolean)
  }
}

/** AI credit accounting without a database: unlimited credits, calls recorded in `usages`. */
export function memoryAi(): RunnerAi & { usages: AiUsage[] } {
  const usages: AiUsage[] = []
  return {
    usages,
    ensureCredits: async () => {},
    recordUsage: async (usage) => {
      usages.push(usage)
    },
  }
}

export interface ContextInput {
  options?: Record<string, any>
  credentials?: Record<string, unknown>
  blockId?: string
  blockType?: string
  outgoingEdgeId?: string
  items?: RunnerBlock['items']
  variables?: TestVariable[]
  textBubbleContentFormat?: 'richText' | 'markdown'
  isPreview?: boolean
  evaluateCondition?: (condition: unknown) => boolean
}

export type TestContext = RunnerContext<any, any> & { bot: BotRunContext; logs: LogEntry[] }

export function botContext(input: ContextInput = {}) {
  const variables = memoryVariables(input.variables)
  const logs: LogEntry[] = []
  const bot: BotRunContext = {
    block: {
      id: input.blockId ?? 'block1',
      type: input.blockType ?? 'text',
      groupId: 'group1',
      outgoingEdgeId: input.outgoingEdgeId,
      items: input.items,
    },
    botId: 'bot1',
    sessionId: 'session1',
    resultId: 'result1',
    isPreview: input.isPreview ?? false,
    environment: 'web',
    textBubbleContentFormat: input.textBubbleContentFormat ?? 'richText',
    transcript: () => [],
    evaluateCondition: input.evaluateCondition ?? evaluateWith(variables),
    appUrl: 'http://localhost:3333',
  }
  const context: TestContext = {
    surface: 'bot',
    bot,
    options: input.options ?? {},
    credentials: input.credentials ?? {},
    variables,
    logs,
    logger: {
      success: (description, details) => logs.push({ status: 'success', description, details }),
      info: (description, details) => logs.push({ status: 'info', description, details }),
      error: (description, details) => logs.push({ status: 'error', description, details }),
    },
    http: {
      request: () => Promise.reject(new Error('No HTTP in runner unit tests')),
    },
    storage: {
      put: () => Promise.reject(new Error('No storage in runner unit tests')),
      read: () => Promise.reject(new Error('No storage in runner unit tests')),
    },
    ai: memoryAi(),
    signal: new AbortController().signal,
  }
  return context
}

/** The same context with the visitor's answer, as a parser receives it. */
export function answerContext(answer: string | InputAnswer, input: ContextInput = {}) {
  return {
    ...botContext(input),
    answer: typeof answer === 'string' ? { text: answer } : answer,
  }
}

/** Runs a bot runner and gives its result (bot runners never return workflow results). */
export async function runBlock(
  runner: ((context: any) => unknown) | undefined,
  input: ContextInput = {}
): Promise<BotRunResult> {
  if (!runner) throw new Error('The plugin exports no runner')
  return ((await runner(botContext(input))) ?? {}) as BotRunResult
}

/** Parses an answer with an input's parser. */
export async function parseAnswer(
  parser: ((context: any) => unknown) | undefined,
  answer: string | InputAnswer,
  input: ContextInput = {}
): Promise<ParsedAnswer> {
  if (!parser) throw new Error('The plugin exports no parser')
  return (await parser(answerContext(answer, input))) as ParsedAnswer
}
