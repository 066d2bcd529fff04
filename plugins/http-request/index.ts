import { definePlugin, field } from '#sdk/plugin'

export const HTTP_METHODS = [
  'POST',
  'GET',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'CONNECT',
  'OPTIONS',
  'TRACE',
] as const

/** Seconds. The spec gives the minimum only; 120 s matches the format's other tools. */
export const DEFAULT_TIMEOUT = 10
export const MAX_TIMEOUT = 120

const BOT: ['bot'] = ['bot']

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
  description: 'Call an API and save parts of its answer',
  category: 'integration',
  scope: 'user',
  icon: 'globe',
  version: 1,
  serves: ['bot', 'workflow'],
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-http-request'],
  fromAlias: fromWorkflowNode,
  options: {
    webhook: field.object(
      {
        method: field.enum({ label: 'Method', options: HTTP_METHODS, defaultValue: 'POST' }),
        url: field.string({
          label: 'URL',
          placeholder: 'Paste the URL...',
          allowVariables: true,
          required: true,
        }),
        queryParams: field.keyValue({ label: 'Query params', allowVariables: true }),
        headers: field.keyValue({ label: 'Headers', allowVariables: true }),
        body: field.code({
          label: 'Body',
          lang: 'json',
          placeholder: '{ "name": "{{Name}}" }',
          showIf: { field: '$.isCustomBody', equals: true },
        }),
      },
      { label: 'Request' }
    ),
    isAdvancedConfig: field.boolean({
      label: 'Advanced configuration',
      defaultValue: false,
      surfaces: BOT,
    }),
    isCustomBody: field.boolean({
      label: 'Custom body',
      helperText: 'Without one, a bot sends all its variables and a workflow sends no body',
      defaultValue: false,
    }),
    isExecutedOnClient: field.boolean({
      label: 'Execute on client',
      defaultValue: false,
      surfaces: BOT,
    }),
    timeout: field.number({
      label: 'Timeout (seconds)',
      min: 1,
      max: MAX_TIMEOUT,
      step: 1,
      defaultValue: DEFAULT_TIMEOUT,
    }),
    variablesForTest: field.list(
      {
        variableId: field.variable({ label: 'Variable' }),
        value: field.string({ label: 'Test value' }),
      },
      { label: 'Variable values for test', itemLabel: 'variable', surfaces: BOT }
    ),
    responseVariableMapping: field.responseMapping({
      label: 'Save in variables',
      key: 'bodyPath',
      surfaces: BOT,
    }),
    ignoreErrorStatus: field.boolean({
      label: 'Succeed on error statuses',
      helperText: 'Answers of 400 and more do not fail the node',
      defaultValue: false,
      surfaces: ['workflow'],
    }),
  },
})
