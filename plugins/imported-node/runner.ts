import type { WorkflowRunner } from '#sdk/runner'
import type { N8nConverter } from '#sdk/n8n'
import type plugin from './index.js'

/** Only reached when someone enables the node: it stands for nothing that can run. */
export const run: WorkflowRunner<typeof plugin> = ({ options }) => {
  throw new Error(
    `Imported node: ${options.source || 'this node'} has no equivalent here; replace it or disable it`
  )
}

/** Any n8n node no other plugin takes over: its type and parameters, kept as they are. */
export const fromN8n: N8nConverter = (node) => ({
  options: {
    source: `n8n: ${node.type}${node.typeVersion !== undefined ? ` v${node.typeVersion}` : ''}`,
    parameters: JSON.stringify(node.parameters ?? {}, null, 2),
  },
  passesInput: true,
})
