import { field } from '../fields.js'

/**
 * The "tools" option of chat-completion blocks (AI function tool):
 * functions the model may call, each with typed parameters and the code that answers it.
 * Browser-safe: manifests import it.
 */
export const TOOL_PARAMETER_TYPES = ['string', 'number', 'boolean', 'enum'] as const

export function functionToolsField() {
  return field.list(
    {
      name: field.string({ label: 'Name', placeholder: 'getWeather', required: true }),
      description: field.string({ label: 'Description', multiline: true }),
      parameters: field.list(
        {
          name: field.string({ label: 'Name', required: true }),
          type: field.enum({
            label: 'Type',
            options: TOOL_PARAMETER_TYPES,
            defaultValue: 'string',
          }),
          values: field.list(
            { value: field.string({ label: 'Value' }) },
            { label: 'Values', itemLabel: 'value', showIf: { field: 'type', equals: 'enum' } }
          ),
          description: field.string({ label: 'Description' }),
          required: field.boolean({ label: 'Required', defaultValue: true }),
        },
        { label: 'Parameters', itemLabel: 'parameter' }
      ),
      code: field.code({
        label: 'Code',
        lang: 'javascript',
        helperText: 'The parameters are variables of the script; return the answer.',
      }),
    },
    { label: 'Tools', itemLabel: 'tool' }
  )
}
