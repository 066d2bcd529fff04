import type { ComponentType, ReactNode } from 'react'
import type { EnumOption, Field, OptionsFrom, ShowIf } from './fields.js'

/**
 * The form the editor draws for a plugin, as the app derives it from the declaration
 * (app/plugins/derive.ts) and as a custom form.tsx receives it (`@flowcraft/sdk/forms`).
 * Types only: the app's derivation and its React form use these same declarations.
 */

/** One field of the form the editor draws. Plain JSON. */
export interface FormField {
  name: string
  kind: Field['kind']
  label: string
  /** Key of the field in the plugin's locale file, e.g. 'fields.labels.fields.button'. */
  i18nKey: string
  helperText?: string
  placeholder?: string
  required?: boolean
  hidden?: boolean
  showIf?: ShowIf
  defaultValue?: unknown
  secret?: boolean
  multiline?: boolean
  translatable?: boolean
  allowVariables?: boolean
  maxLength?: number
  pattern?: string
  min?: number
  max?: number
  step?: number
  options?: EnumOption[]
  /** With the id of the plugin whose `fetchers` export serves it. */
  optionsFrom?: OptionsFrom & { pluginId?: string }
  itemLabel?: string
  /** List items' fields. */
  itemFields?: FormField[]
  /** Nested object's fields. */
  fields?: FormField[]
  writes?: boolean
  expression?: boolean
  lang?: string
  variables?: 'braces' | 'names'
  codeIf?: ShowIf
  credentialType?: string
  key?: string
  from?: readonly string[]
  keyLabel?: string
  valueLabel?: string
}

export interface FormDescription {
  id: string
  slug: string
  name: string
  category: string
  storedIn: 'options' | 'content'
  fields: FormField[]
  actions?: { name: string; label: string; description?: string; fields: FormField[] }[]
  credentials?: FormField[]
  items?: { fields: FormField[]; min?: number; max?: number }
}

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

/** The props of the generated form; a plugin's form.tsx receives the same (`CustomFormProps`). */
export interface PluginFormProps {
  fields: readonly FormField[]
  value: Record<string, unknown> | null | undefined
  onChange: (next: Record<string, unknown>) => void
  /** Error messages by field path ('timeout', 'webhook.url', 'messages.0.content'). */
  errors?: FormErrors
  readOnly?: boolean
  variables?: readonly FormVariable[]
  credentials?: readonly FormCredentials[]
  /** Extra notes under fields, by path (e.g. whether a saved secret is set). */
  notes?: Record<string, ReactNode>
  /** Prefix of the inputs' ids, to keep two forms on one page apart. */
  idPrefix?: string
  className?: string
  testId?: string
  /**
   * Draws every variable field (variable kind, response-mapping rows) in place of the
   * select of existing variables: the bot editor passes its picker, which can also create
   * a variable. The generated form is shared with the workflow editor, so it cannot import it.
   */
  VariableField?: ComponentType<VariableFieldProps>
}
