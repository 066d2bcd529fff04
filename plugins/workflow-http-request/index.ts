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

/** Seconds (spec: at least 1; the maximum is ours). */
export const DEFAULT_TIMEOUT = 10
export const MAX_TIMEOUT = 120

/**
 * Calls an API through the guarded HTTP client. The output is {statusCode, headers, body};
 * an answer of 400 or more fails the node (retries and error handling apply) unless
 * told otherwise.
 */
export default definePlugin({
  id: 'workflow-http-request',
  name: 'HTTP request',
  description: 'Call an API',
  category: 'action',
  scope: 'user',
  icon: 'globe',
  version: 1,
  serves: ['workflow'],
  options: {
    method: field.enum({ label: 'Method', options: HTTP_METHODS, defaultValue: 'POST' }),
    url: field.string({
      label: 'URL',
      placeholder: 'https://api.example.com/items',
      allowVariables: true,
      required: true,
    }),
    query: field.keyValue({ label: 'Query params', allowVariables: true }),
    headers: field.keyValue({ label: 'Headers', allowVariables: true }),
    body: field.code({
      label: 'Body',
      lang: 'json',
      placeholder: '{ "name": "{{$input.name}}" }',
      showIf: { field: 'method', notIn: ['GET', 'HEAD'] },
    }),
    timeout: field.number({
      label: 'Timeout (seconds)',
      min: 1,
      max: MAX_TIMEOUT,
      step: 1,
      defaultValue: DEFAULT_TIMEOUT,
    }),
    ignoreErrorStatus: field.boolean({
      label: 'Succeed on error statuses',
      helperText: 'Answers of 400 and more do not fail the node',
      defaultValue: false,
    }),
  },
})
