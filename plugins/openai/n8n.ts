import type { N8nConverter } from '#sdk/n8n'

/** n8n's OpenAI Chat Model, plugged into an agent: our OpenAI node's Chat model action. */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const options = p.options ?? {}
  const model = typeof p.model === 'object' && p.model !== null ? p.model.value : p.model
  const number = (value: unknown) => (Number.isFinite(Number(value)) ? Number(value) : undefined)
  if (options.baseURL) tools.lost('the base URL (set it on the credentials)')
  if (options.responseFormat) tools.lost('the response format')
  return {
    options: {
      action: 'Chat model',
      model: tools.text(model ?? 'gpt-4o-mini'),
      ...(number(options.temperature) !== undefined
        ? { temperature: number(options.temperature) }
        : {}),
      ...(number(options.topP) !== undefined ? { topP: number(options.topP) } : {}),
      ...(number(options.maxTokens) !== undefined && Number(options.maxTokens) > 0
        ? { maxTokens: number(options.maxTokens) }
        : {}),
    },
  }
}
