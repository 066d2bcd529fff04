/**
 * The field DSL a plugin declares its options with. One declaration feeds the VineJS
 * validator, the default options, the form the editor draws and the list of written
 * variables (app/plugins/derive.ts).
 *
 * This module is imported by plugin manifests, which the browser imports too: it must
 * stay free of Node and server imports, and every declaration must stay plain data
 * (no functions) so that the form description can be sent as JSON.
 */

/**
 * When a field is shown. `field` is a dot path resolved against the object that holds
 * the field (its siblings), so a nested object's fields refer to each other by name; a
 * path starting with '$.' is resolved from the root of the options instead.
 * Predicates are data, not functions, so the editor receives them as JSON.
 */
export type ShowIf =
  | { field: string; equals: unknown }
  | { field: string; notEquals: unknown }
  | { field: string; in: readonly unknown[] }
  | { field: string; notIn: readonly unknown[] }
  | { field: string; notEmpty: true }
  | { field: string; isEmpty: true }
  | { all: readonly ShowIf[] }
  | { any: readonly ShowIf[] }

/** Options fetched by the server at edit time (e.g. a provider's model list). */
export interface OptionsFrom {
  fetcher: string
  /** Sibling fields whose values the fetcher needs (e.g. credentialsId). */
  dependsOn?: readonly string[]
}

export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'list'
  | 'object'
  | 'keyValue'
  | 'variable'
  | 'code'
  | 'json'
  | 'credentials'
  | 'responseMapping'

interface Common<T> {
  label?: string
  helperText?: string
  /** Enforced by the run validator; the save validator lets drafts be incomplete. */
  required?: boolean
  showIf?: ShowIf
  defaultValue?: T
  /** Hidden in the generated form but still validated and kept (deprecated fields). */
  hidden?: boolean
  /**
   * A plugin serving bots and workflows may keep a field to one editor (a bot's "Execute on
   * client", a workflow's resume mode): the other editor's form leaves it out.
   */
  surfaces?: readonly ('bot' | 'workflow')[]
  /**
   * A text the visitor reads (a bubble, a placeholder, a button, a retry message): a bot
   * in several languages holds a translation of it per language (app/shared/bot/translations.ts).
   */
  translatable?: boolean
  /** Phantom member carrying the value type for inference; never set. */
  readonly __value?: T
}

export interface StringField extends Common<string> {
  kind: 'string'
  placeholder?: string
  multiline?: boolean
  /** Shown as a password input, redacted when sent to the browser. */
  secret?: boolean
  /** Offer the variable picker and allow {{Variable}} inside the text. */
  allowVariables?: boolean
  maxLength?: number
  /** A regular expression source the value must match (unless it holds a {{Variable}}). */
  pattern?: string
  patternMessage?: string
  /** 'url': one absolute http(s) URL (a server's base URL), checked on save. */
  format?: 'url'
  optionsFrom?: OptionsFrom
  /**
   * The value is the id of another bot of the workspace (a link): when bots are imported
   * together and a linked one gets a new id, the value follows it.
   */
  refersTo?: 'bot'
}

/**
 * The runner receives a number: with `allowVariables` the stored value may be a
 * '{{Variable}}' reference, substituted and read as a number before the runner runs.
 */
export interface NumberField extends Common<number> {
  kind: 'number'
  placeholder?: string
  min?: number
  max?: number
  step?: number
  /** Accept a '{{Variable}}' reference instead of a number (the name string fields use). */
  allowVariables?: boolean
  /** @deprecated The former name of `allowVariables`, still accepted. */
  allowVariable?: boolean
}

export interface BooleanField extends Common<boolean> {
  kind: 'boolean'
}

export interface EnumOption<V extends string = string> {
  label: string
  value: V
}

export interface EnumField<V extends string = string> extends Common<V> {
  kind: 'enum'
  options: readonly EnumOption<V>[]
  placeholder?: string
  /** Options come from the server; any string is then accepted. */
  optionsFrom?: OptionsFrom
}

export interface ListField<F extends Fields = Fields> extends Common<ListItem<F>[]> {
  kind: 'list'
  fields: F
  itemLabel?: string
  min?: number
  max?: number
}

export interface ObjectField<F extends Fields = Fields> extends Common<InferFields<F>> {
  kind: 'object'
  fields: F
}

export interface KeyValueEntry {
  id?: string
  key?: string
  value?: string
}

export interface KeyValueField extends Common<KeyValueEntry[]> {
  kind: 'keyValue'
  keyLabel?: string
  valueLabel?: string
  allowVariables?: boolean
}

export interface VariableField extends Common<string> {
  kind: 'variable'
  placeholder?: string
  /** The block stores a value in this variable (feeds writtenVariablesOf). */
  writes?: boolean
  /**
   * The value may also be an expression with {{references}} in place of a variable id:
   * what a condition compares (app/engine/bot/conditions.ts, `leftValue`).
   */
  expression?: boolean
}

export interface CodeField extends Common<string> {
  kind: 'code'
  lang: 'javascript' | 'typescript' | 'html' | 'css' | 'json' | 'sql' | 'python' | 'text'
  placeholder?: string
  /**
   * How the text reaches the flow's variables, which the editor completes: 'braces' when
   * the runner replaces {{Name}} references (`{{` offers them), 'names' when the variables
   * are names in the script's scope. Without it the editor offers none (a SQL query).
   */
  variables?: 'braces' | 'names'
  /**
   * The value is code only while this holds (Set variable's "Evaluate as code"); otherwise
   * the editor draws it as text with {{variables}}, without the language.
   */
  codeIf?: ShowIf
}

export interface JsonField extends Common<unknown> {
  kind: 'json'
}

export interface CredentialsField extends Common<string> {
  kind: 'credentials'
  credentialType: string
}

export interface ResponseMappingEntry {
  id?: string
  bodyPath?: string
  item?: string
  field?: string
  variableId?: string
}

export interface ResponseMappingField extends Common<ResponseMappingEntry[]> {
  kind: 'responseMapping'
  /** Which key of an entry names the source: a body path, a fixed item or a field name. */
  key: 'bodyPath' | 'item' | 'field'
  /** Fixed choices for the source (e.g. 'Message content', 'Total tokens'). */
  from?: readonly string[]
}

export type Field =
  | StringField
  | NumberField
  | BooleanField
  | EnumField<string>
  | ListField<any>
  | ObjectField<any>
  | KeyValueField
  | VariableField
  | CodeField
  | JsonField
  | CredentialsField
  | ResponseMappingField

export type Fields = { readonly [name: string]: Field }

export type FieldValue<F> = F extends { readonly __value?: infer T } ? T : never

/** The stored options shape of a set of fields. Every key is optional: stored options are. */
export type InferFields<F extends Fields> = { [K in keyof F]?: FieldValue<F[K]> }

export type ListItem<F extends Fields> = { id?: string } & InferFields<F>

type Without<T, K extends keyof any> = Omit<T, K | 'kind' | '__value'>

/** A variable reference stored in place of a number: '{{Some variable}}'. */
export const VARIABLE_REFERENCE = /^\s*\{\{[^{}]+\}\}\s*$/

function normalizeOptions<V extends string>(
  options: readonly (V | EnumOption<V>)[]
): EnumOption<V>[] {
  return options.map((option) =>
    typeof option === 'string' ? { label: option, value: option } : { ...option }
  )
}

export const field = {
  string(options: Without<StringField, never> = {}): StringField {
    return { kind: 'string', ...options }
  },

  number(options: Without<NumberField, never> = {}): NumberField {
    // One name downstream (validator, form, runner): the former one is folded into it.
    const { allowVariable, ...rest } = options
    const allowVariables = rest.allowVariables ?? allowVariable
    return { kind: 'number', ...rest, ...(allowVariables === undefined ? {} : { allowVariables }) }
  },

  boolean(options: Without<BooleanField, never> = {}): BooleanField {
    return { kind: 'boolean', ...options }
  },

  enum<const V extends string>(
    options: Without<EnumField<V>, 'options'> & { options: readonly (V | EnumOption<V>)[] }
  ): EnumField<V> {
    return { kind: 'enum', ...options, options: normalizeOptions(options.options) }
  },

  list<const F extends Fields>(
    fields: F,
    options: Without<ListField<F>, 'fields'> = {}
  ): ListField<F> {
    return { kind: 'list', ...options, fields }
  },

  object<const F extends Fields>(
    fields: F,
    options: Without<ObjectField<F>, 'fields'> = {}
  ): ObjectField<F> {
    return { kind: 'object', ...options, fields }
  },

  keyValue(options: Without<KeyValueField, never> = {}): KeyValueField {
    return { kind: 'keyValue', ...options }
  },

  variable(options: Without<VariableField, never> = {}): VariableField {
    return { kind: 'variable', ...options }
  },

  code(options: Without<CodeField, never> & { lang: CodeField['lang'] }): CodeField {
    return { kind: 'code', ...options }
  },

  json(options: Without<JsonField, never> = {}): JsonField {
    return { kind: 'json', ...options }
  },

  credentials(
    options: Without<CredentialsField, never> & { credentialType: string }
  ): CredentialsField {
    return { kind: 'credentials', ...options }
  },

  responseMapping(
    options: Without<ResponseMappingField, 'key'> & { key?: ResponseMappingField['key'] } = {}
  ): ResponseMappingField {
    return {
      kind: 'responseMapping',
      ...options,
      key: options.key ?? (options.from ? 'item' : 'bodyPath'),
    }
  },
}

/** Enum option values of a field, in order. */
export function enumValues(enumField: EnumField<string>): string[] {
  return enumField.options.map((option) => option.value)
}

/**
 * Key/value lists keep half-filled rows while the builder types; consumers skip entries
 * whose key or value is empty (a row being typed is not an entry yet).
 */
export function cleanKeyValue(
  entries: readonly KeyValueEntry[] | null | undefined
): { key: string; value: string }[] {
  if (!Array.isArray(entries)) return []
  const clean: { key: string; value: string }[] = []
  for (const entry of entries) {
    const key = typeof entry?.key === 'string' ? entry.key.trim() : ''
    const value = entry?.value === undefined || entry?.value === null ? '' : String(entry.value)
    if (key === '' || value === '') continue
    clean.push({ key, value })
  }
  return clean
}

/** The cleaned entries as an object (later keys win), e.g. for headers or query params. */
export function keyValueToRecord(entries: readonly KeyValueEntry[] | null | undefined) {
  const record: Record<string, string> = {}
  for (const { key, value } of cleanKeyValue(entries)) record[key] = value
  return record
}

function readPath(values: unknown, path: string): unknown {
  let current: any = values
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = current[part]
  }
  return current
}

function isEmptyValue(value: unknown) {
  if (value === undefined || value === null || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return false
}

/**
 * Whether a field is shown given the values of the object holding it. Used by the
 * editor to draw the form and by the validator to skip required checks of hidden fields.
 */
export function isShown(
  showIf: ShowIf | undefined,
  siblings: unknown,
  root: unknown = siblings
): boolean {
  if (!showIf) return true
  if ('all' in showIf) return showIf.all.every((condition) => isShown(condition, siblings, root))
  if ('any' in showIf) return showIf.any.some((condition) => isShown(condition, siblings, root))
  const value = showIf.field.startsWith('$.')
    ? readPath(root, showIf.field.slice(2))
    : readPath(siblings, showIf.field)
  if ('equals' in showIf) return value === showIf.equals
  if ('notEquals' in showIf) return value !== showIf.notEquals
  if ('in' in showIf) return showIf.in.includes(value)
  if ('notIn' in showIf) return !showIf.notIn.includes(value)
  if ('notEmpty' in showIf) return !isEmptyValue(value)
  if ('isEmpty' in showIf) return isEmptyValue(value)
  return true
}
