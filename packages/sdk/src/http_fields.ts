import { field } from './fields.js'

/**
 * The options of an outgoing HTTP request block (browser and server; `#sdk/http_fields` in
 * the app, part of `@flowcraft/sdk/http`), shared by the HTTP request plugin and the blocks
 * that post to an automation service (Zapier, Make, Pabbly): they are the same request with
 * another name, icon and help. The runner they share is `httpRequestRunner` (http.ts).
 */

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

/** Seconds; at most 120 s, as the format's other tools allow. */
export const DEFAULT_TIMEOUT = 10
export const MAX_TIMEOUT = 120

const BOT: ['bot'] = ['bot']

export interface HttpRequestFieldsOptions {
  /** The URL field's placeholder and help: where the service gives its webhook URL. */
  urlPlaceholder?: string
  urlHelp?: string
}

/**
 * The request and what a bot does with its answer. Fields kept to one surface say so
 * (`surfaces`); a bot-only block simply never shows the workflow-only one.
 */
export function httpRequestFields({ urlPlaceholder, urlHelp }: HttpRequestFieldsOptions = {}) {
  return {
    webhook: field.object(
      {
        method: field.enum({ label: 'Method', options: HTTP_METHODS, defaultValue: 'POST' }),
        url: field.string({
          label: 'URL',
          placeholder: urlPlaceholder ?? 'Paste the URL...',
          ...(urlHelp ? { helperText: urlHelp } : {}),
          allowVariables: true,
          required: true,
        }),
        queryParams: field.keyValue({ label: 'Query params', allowVariables: true }),
        headers: field.keyValue({ label: 'Headers', allowVariables: true }),
        body: field.code({
          label: 'Body',
          lang: 'json',
          variables: 'braces',
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
  }
}
