import type { N8nConverter } from '#sdk/n8n'
import { DEFAULT_SYSTEM_PROMPT } from '#sdk/ai_fields'

/**
 * n8n's AI Agent. Its chat model and tools arrive as attachments (the importer turns n8n's
 * ai_languageModel and ai_tool connections into our Model and Tools slots). "Take from
 * previous node" reads the chat input of the node before, as n8n does.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const options = p.options ?? {}
  const userQuery =
    p.promptType === 'define' || (p.promptType === undefined && p.text)
      ? tools.text(p.text ?? '')
      : tools.text('={{ $json.chatInput }}')
  if (p.hasOutputParser) tools.lost('the output parser')
  if (options.maxIterations !== undefined) tools.lost('the maximum of iterations')
  return {
    options: {
      queryPrompt: options.systemMessage
        ? tools.text(options.systemMessage)
        : DEFAULT_SYSTEM_PROMPT,
      userQuery,
    },
  }
}
