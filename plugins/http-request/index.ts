import { definePlugin, output } from '#sdk/plugin'
import { httpRequestFields } from '#sdk/http_fields'

export { DEFAULT_TIMEOUT, HTTP_METHODS, MAX_TIMEOUT } from '#sdk/http_fields'

/** A node of the former workflow-only plugin kept its request at the top level. */
function fromWorkflowNode(_alias: string, stored: Record<string, unknown>) {
  const { method, url, query, headers, body, ...rest } = stored
  return {
    ...rest,
    webhook: { method, url, queryParams: query, headers, body },
    isCustomBody: typeof body === 'string' && body.trim() !== '',
  }
}

/**
 * The outgoing HTTP request, for bots and workflows. Its stored type is 'Webhook'
 * (capitalised, as exported by other tools), which has the same slug as the waiting
 * 'webhook' block: hence the explicit slug.
 */
export default definePlugin({
  id: 'Webhook',
  slug: 'http-request',
  name: 'HTTP request',
  fullName: 'HTTP request (REST API call)',
  tags: ['api', 'rest', 'http', 'fetch'],
  description: 'Call an API and save parts of its answer',
  category: 'integration',
  scope: 'user',
  icon: 'globe',
  version: 1,
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.httpRequest'] },
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-http-request'],
  fromAlias: fromWorkflowNode,
  // In a workflow (#sdk/http): the answer's status, headers and parsed body.
  outputSchema: output.object({
    statusCode: output.number(),
    headers: output.object({ 'content-type': output.string() }),
    body: output.any(),
  }),
  options: httpRequestFields(),
})
