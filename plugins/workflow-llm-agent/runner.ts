import type { WorkflowRunner } from '#sdk/runner'
import {
  type AgentTool,
  type AgentToolFactory,
  chatErrorLog,
  type ChatModelFactory,
  maxIterationsMessage,
  ModelUnreachableError,
  ProviderError,
  runAgent,
} from '#sdk/ai'
import type plugin from './index.js'

/**
 * Borrows the model of the Model attachment and the tools of the Tool attachments, then
 * runs the agent loop of the bot block. The output is { output, toolCalls }. A missing
 * model, a provider failure or running out of iterations fails the node.
 */
export const run: WorkflowRunner<typeof plugin> = async ({
  options,
  logger,
  http,
  ai,
  signal,
  workflow,
}) => {
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

  const userQuery = options.userQuery?.trim()
  if (!userQuery) throw new Error('LLM agent: the user query is empty')

  let result: Awaited<ReturnType<typeof runAgent>>
  try {
    result = await runAgent({
      http,
      ai,
      endpoint: config.endpoint,
      model: config.model,
      temperature: config.temperature ?? 0,
      topP: config.topP,
      maxTokens: config.maxTokens,
      systemPrompt: options.queryPrompt,
      userQuery,
      tools,
      signal,
    })
  } catch (error) {
    // Tool failures ('Function code is undefined') and credit refusals are the block's own.
    if (!(error instanceof ProviderError || error instanceof ModelUnreachableError)) throw error
    const log = chatErrorLog(error)
    logger.error(log.description, log.details)
    return
  }
  if (result.capped) logger.error(maxIterationsMessage(result.iterations))
  else if (result.toolCalls.length > 0) {
    logger.info(`The agent called ${result.toolCalls.length} tool(s)`)
  }
  return { output: { output: result.output, toolCalls: result.toolCalls } }
}
