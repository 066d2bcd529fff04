/**
 * The form description the server derives from a plugin declaration (app/plugins/derive.ts),
 * as the browser receives it. Type-only imports: erased by Vite.
 */
export type { FormDescription, FormField } from '../../../app/plugins/derive'
export type { ShowIf } from '../../../app/plugins/fields'

/** A variable of the bot or workflow being edited: the form stores its id. */
export interface FormVariable {
  id: string
  name: string
}

/** A credentials record the user may pick (never its data). */
export interface FormCredentials {
  id: string
  name: string
  type: string
}

/** Field errors by path: 'timeout', 'webhook.url', 'messages.0.content'. */
export type FormErrors = Record<string, string | undefined>

/**
 * What an injected variable field receives (PluginFormProps.VariableField): the chosen
 * variable's id, and the input's id and accessibility attributes the form computed.
 */
export interface VariableFieldProps {
  value: string | undefined
  onChange: (variableId: string) => void
  id?: string
  disabled?: boolean
  placeholder?: string
  describedBy?: string
  invalid?: boolean
  required?: boolean
  testId?: string
  ariaLabel?: string
}
