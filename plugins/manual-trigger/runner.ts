import type { WorkflowRunner } from '#sdk/runner'
import type plugin from './index.js'

/** The caller's input goes on as it is; without one, the test input (JSON) stands in. */
export const run: WorkflowRunner<typeof plugin> = ({ options, workflow, logger }) => {
  const input = workflow?.input
  if (input !== undefined && input !== null) return { output: input }
  const text = options.testInput?.trim()
  if (!text) return { output: {} }
  try {
    return { output: JSON.parse(text) }
  } catch {
    logger.error('Manual trigger: the test input is not valid JSON')
    return { output: {} }
  }
}

export { fromN8n } from './n8n.js'
