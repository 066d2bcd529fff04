import type { N8nConverter } from '#sdk/n8n'

/**
 * n8n's Execute Workflow (from the database). The id it names is n8n's: the report says
 * so, and the builder picks the imported workflow here. Inputs mapped by n8n's "define
 * below" become this node's inputs; otherwise the node's input is passed, as n8n does.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const source = String(p.source ?? 'database')
  if (source !== 'database') throw new Error(`a workflow given by ${source} has no counterpart`)
  const raw =
    typeof p.workflowId === 'object' && p.workflowId !== null ? p.workflowId.value : p.workflowId
  const workflowId = tools.text(raw ?? '')
  const name = typeof p.workflowId === 'object' ? p.workflowId?.cachedResultName : undefined
  tools.lost(
    `the workflow "${name ?? workflowId}" (n8n id ${workflowId}): import it too and pick it in this node`
  )
  if (p.mode === 'each') tools.lost('running once for each item (it runs once with the input)')
  if (p.options?.waitForSubWorkflow === false) tools.lost('not waiting for the workflow')
  const mapped =
    p.workflowInputs?.mappingMode === 'defineBelow' ? p.workflowInputs.value : undefined
  const inputs = Object.entries(mapped ?? {}).map(([key, value]) => ({
    key,
    value: tools.text(value),
  }))
  return { options: { workflowId, inputs } }
}
