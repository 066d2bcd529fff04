import { field } from '../fields.js'

/**
 * The LLM agent's option fields, shared by the bot block and the
 * workflow Tool nodes. Browser-safe: manifests import it.
 */

export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful AI assistant.'
export const AGENT_INPUT_TYPES = ['boolean', 'number', 'string'] as const
export const API_TOOL_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const
export const API_PARAM_TYPES = ['string', 'number', 'boolean'] as const
export const API_TOOL_DEFAULT_TIMEOUT_MS = 10_000
export const API_TOOL_MIN_TIMEOUT_MS = 1_000
export const API_TOOL_MAX_TIMEOUT_MS = 60_000

/** A custom tool: code run in the sandbox with the model's inputs as variables. */
export function agentToolFields() {
  return {
    name: field.string({ label: 'Name', placeholder: 'getWeather', required: true }),
    description: field.string({
      label: 'Description',
      multiline: true,
      helperText: 'Tells the model when to use the tool.',
    }),
    multiVariable: field.list(
      {
        inputVariable: field.string({ label: 'Input name', required: true }),
        inputType: field.enum({
          label: 'Type',
          options: AGENT_INPUT_TYPES,
          defaultValue: 'string',
        }),
        inputDescription: field.string({ label: 'Description' }),
      },
      { label: 'Inputs', itemLabel: 'input' }
    ),
    functionCode: field.code({
      label: 'Code',
      lang: 'javascript',
      helperText: 'The inputs are variables of the script; return the answer.',
    }),
  } as const
}

function apiParamFields() {
  return {
    name: field.string({ label: 'Name', required: true }),
    type: field.enum({ label: 'Type', options: API_PARAM_TYPES, defaultValue: 'string' }),
    description: field.string({ label: 'Description' }),
  } as const
}

/** An API tool: the model fills the parameters, the configured request is sent. */
export function apiToolFields() {
  return {
    name: field.string({ label: 'Name', placeholder: 'getOrder', required: true }),
    method: field.enum({ label: 'Method', options: API_TOOL_METHODS, defaultValue: 'GET' }),
    description: field.string({
      label: 'Description',
      multiline: true,
      helperText: 'Tells the model when to use the API.',
    }),
    url: field.string({
      label: 'URL',
      placeholder: 'https://api.example.com/orders/{orderId}',
      helperText: 'Path parameters in braces are filled by the model.',
      required: true,
    }),
    headers: field.code({ label: 'Headers (JSON)', lang: 'json', defaultValue: '{}' }),
    params: field.list(apiParamFields(), { label: 'Path parameters', itemLabel: 'parameter' }),
    queryParams: field.list(apiParamFields(), {
      label: 'Query parameters',
      itemLabel: 'parameter',
    }),
    bodySchema: field.code({
      label: 'Body schema (JSON)',
      lang: 'json',
      placeholder: '{ "type": "object", "properties": { "quantity": { "type": "number" } } }',
      showIf: { field: 'method', notEquals: 'GET' },
    }),
  } as const
}
