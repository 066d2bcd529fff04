import type { N8nConverter } from '#sdk/n8n'

/**
 * n8n's Manual trigger, and the trigger of a workflow run by another one (Execute Workflow
 * Trigger): here both start with what the caller sends.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const inputs = node.parameters?.workflowInputs?.values
  if (Array.isArray(inputs) && inputs.length > 0) {
    tools.lost("the declared inputs (the caller's input is passed as it is)")
  }
  return { options: {} }
}
