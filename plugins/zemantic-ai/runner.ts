import type { Runner } from '#sdk/plugin'
import { callBrain } from '#sdk/brain'
import type plugin from './index.js'

/**
 * POST /ask_query on the brain service; its `response` is the answer (saved in the
 * variable, a workflow node's output `{ answer }`), its `detail` the reason of a refusal.
 */
export const run: Runner<typeof plugin> = async ({
  surface,
  options,
  variables,
  logger,
  signal,
}) => {
  const filepath = options.filepath?.trim()
  const query = options.query?.trim()
  if (!filepath || !query) {
    logger.error(`Zemantic AI: the ${filepath ? 'question' : 'document'} is empty`)
    return {}
  }
  let answer: { response?: unknown }
  try {
    answer = await callBrain('/ask_query', { filepath, query }, { signal })
  } catch (error) {
    if (surface === 'workflow') throw error
    logger.error(`Zemantic AI: ${(error as Error).message}`)
    return {}
  }
  const response =
    typeof answer.response === 'string' ? answer.response : JSON.stringify(answer.response ?? '')
  if (options.saveAnswerInVariableId) variables.set(options.saveAnswerInVariableId, response)
  logger.success('Zemantic AI answered')
  return { output: { answer: response } }
}
