import type { SurfaceRunner } from '#sdk/runner'
import {
  type AgentTool,
  type AgentToolFactory,
  AI_ERRORS,
  apiAgentTool,
  chatErrorLog,
  type ChatModelFactory,
  KNOWLEDGE_SOURCES,
  knowledgeSearchTool,
  customAgentTool,
  maxIterationsMessage,
  ModelUnreachableError,
  ProviderError,
  runAgent,
} from '#sdk/ai'
import { knowledgeStoresOf } from '#sdk/knowledge'
import type { Fetcher } from '#sdk/plugin'
import type plugin from './index.js'

/** Groq's OpenAI-compatible API; the hidden baseUrl option replaces it (tests, proxies). */
export const GROQ_BASE_URL = 'https://api.groq.com/openai/v1'
export const GROQ_AGENT_MODEL = 'llama-3.3-70b-versatile'

type Context = Parameters<SurfaceRunner<typeof plugin>>[0]
type AgentSetup = Pick<
  Parameters<typeof runAgent>[0],
  'endpoint' | 'model' | 'temperature' | 'topP' | 'maxTokens' | 'tools' | 'retries'
>

/** A bot block names its agent and key, and carries its tools in its options. */
function botSetup({ options, http, sandbox, signal, logger }: Context): AgentSetup | undefined {
  if (options.agent !== 'groq') return void logger.error(AI_ERRORS.unsupportedLlm)
  const apiKey = options.secretKey?.trim()
  if (!apiKey) return void logger.error(AI_ERRORS.noApiKey)
  const tools: AgentTool[] = []
  if (options.customToolEnabled) {
    for (const stored of options.customTool ?? []) {
      const tool = customAgentTool(stored, sandbox)
      if (tool) tools.push(tool)
    }
  }
  if (options.apiConfigEnabled) {
    for (const stored of options.apiConfig ?? []) {
      const tool = apiAgentTool(stored, http, signal)
      if (tool) tools.push(tool)
    }
  }
  return {
    endpoint: { baseUrl: options.baseUrl?.trim() || GROQ_BASE_URL, apiKey },
    model: GROQ_AGENT_MODEL,
    temperature: 0,
    tools,
  }
}

/** A workflow node borrows the model of its Model attachment and the tools of its Tools. */
async function workflowSetup({ workflow }: Context): Promise<AgentSetup> {
  const attachments = workflow?.attachments ?? []
  const model = attachments.find((node) => node.slot === 'model')
  if (!model) throw new Error('LLM agent: plug a Model node into the Model slot')
  const chatModel = await model.exportOf<ChatModelFactory>('chatModel')
  if (typeof chatModel !== 'function') {
    throw new Error(`LLM agent: "${model.title ?? model.type}" is not a Model node`)
  }
  const config = await chatModel(await model.context())
  const tools: AgentTool[] = []
  for (const node of attachments.filter((attached) => attached.slot === 'tools')) {
    const factory = await node.exportOf<AgentToolFactory>('agentTools')
    if (typeof factory !== 'function') {
      throw new Error(`LLM agent: "${node.title ?? node.type}" is not a Tool node`)
    }
    const made = await factory(await node.context())
    tools.push(...(Array.isArray(made) ? made : [made]))
  }
  return {
    endpoint: config.endpoint,
    model: config.model,
    temperature: config.temperature ?? 0,
    topP: config.topP,
    maxTokens: config.maxTokens,
    ...(config.retries !== undefined ? { retries: config.retries } : {}),
    tools,
  }
}

/**
 * Runs the agent loop with the tools of the surface and maps its answer: a bot saves it in
 * variables, a workflow node outputs { output, toolCalls }. A provider failure is logged as
 * the chat completions' API error (in a workflow an error log fails the node); a tool
 * without code stops the agent with 'Function code is undefined'. In a workflow a missing
 * model fails the node.
 */
export const run: SurfaceRunner<typeof plugin> = async (context) => {
  const { surface, options, variables, logger, http, ai, signal } = context
  const setup = surface === 'workflow' ? await workflowSetup(context) : botSetup(context)
  if (!setup) return
  // The chat blocks' "search_knowledge" tool (docs/knowledge.md): it remembers the passages
  // it returned, whose sources the block saves and the node outputs.
  const storeId = options.knowledgeStoreId?.trim()
  const knowledge = knowledgeSearchTool({
    storeIds: storeId ? [storeId] : [],
    limit: options.knowledgeDocuments,
    workspaceId: context.workspaceId,
    signal,
    ai,
  })
  if (knowledge) setup.tools = [...(setup.tools ?? []), knowledge.tool]
  const userQuery = options.userQuery?.trim()
  if (!userQuery) {
    if (surface === 'workflow') throw new Error('LLM agent: the user query is empty')
    return logger.error('The user query is empty')
  }

  let result: Awaited<ReturnType<typeof runAgent>>
  try {
    result = await runAgent({
      ...setup,
      http,
      ai,
      systemPrompt: options.queryPrompt,
      userQuery,
      signal,
    })
  } catch (error) {
    // Tool failures ('Function code is undefined') and credit refusals are the block's own.
    if (!(error instanceof ProviderError || error instanceof ModelUnreachableError)) throw error
    const log = chatErrorLog(error)
    return logger.error(log.description, log.details)
  }

  if (result.toolCalls.length > 0) {
    logger.info(
      `The agent called ${result.toolCalls.length} tool(s)`,
      surface === 'bot' ? result.toolCalls : undefined
    )
  }
  if (result.capped) logger.error(maxIterationsMessage(result.iterations))
  if (surface === 'workflow') {
    return {
      output: {
        output: result.output,
        toolCalls: result.toolCalls,
        // The passages the agent read, with their sources, when it may search a store.
        ...(knowledge ? { sources: knowledge.sources(), passages: knowledge.found } : {}),
      },
    }
  }
  for (const mapping of options.responseMapping ?? []) {
    if (!mapping.variableId) continue
    const item = mapping.item ?? 'Message content'
    if (item === 'Message content') variables.set(mapping.variableId, result.output)
    else if (item === 'Total tokens') variables.set(mapping.variableId, result.usage.totalTokens)
    else if (item === KNOWLEDGE_SOURCES)
      variables.set(mapping.variableId, knowledge?.sources() ?? [])
  }
}

/** The knowledge stores of the block's workspace, for the Knowledge store field. */
export const fetchers: Record<string, Fetcher<typeof plugin>> = {
  knowledgeStores: async ({ workspaceId }) => (workspaceId ? knowledgeStoresOf(workspaceId) : []),
}

export { fromN8n } from './n8n.js'
