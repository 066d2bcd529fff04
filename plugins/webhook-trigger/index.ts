import { definePlugin, field, output } from '#sdk/plugin'

export const WEBHOOK_METHODS = ['POST', 'GET'] as const
export const RESPONSE_MODES = ['immediately', 'lastNode', 'responseNode'] as const

/**
 * Starts a run when POST|GET /api/v1/workflows/{id}/webhook is called. The call (method,
 * headers, query, body) is the run's input; the answer depends on the response mode.
 */
export default definePlugin({
  id: 'webhook-trigger',
  name: 'Webhook trigger',
  fullName: 'Webhook trigger (incoming call)',
  tags: ['webhook', 'http', 'api', 'incoming'],
  description: 'Start the workflow when its URL is called',
  category: 'trigger',
  scope: 'user',
  icon: 'webhook',
  version: 1,
  serves: ['workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.webhook', '@n8n/n8n-nodes-langchain.chatTrigger'] },
  replayable: true,
  exposesUrl: {
    kind: 'webhook',
    hint: 'Call it to start a run; the workflow must be published and active.',
    methodOption: 'method',
    secretOption: 'secret',
    secretHeader: 'X-Webhook-Secret',
  },
  // The call without its secret (runner.ts webhookInput).
  outputSchema: output.object({
    method: output.string(),
    headers: output.object({
      'content-type': output.string(),
      'user-agent': output.string(),
    }),
    query: output.object({}),
    body: output.any(),
  }),
  options: {
    method: field.enum({ label: 'Method', options: WEBHOOK_METHODS, defaultValue: 'POST' }),
    secret: field.string({
      label: 'Secret',
      placeholder: 'Leave empty to accept every call',
      helperText: 'Callers send it in the X-Webhook-Secret header or the secret query parameter',
      maxLength: 255,
    }),
    responseMode: field.enum({
      label: 'Respond',
      options: [
        { label: 'Immediately, with the run id (202)', value: 'immediately' },
        { label: 'When the last node has finished, with its output', value: 'lastNode' },
        { label: 'With a Respond to webhook node', value: 'responseNode' },
      ],
      defaultValue: 'immediately',
    }),
  },
})
