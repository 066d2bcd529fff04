/**
 * Everything the core derives from one plugin declaration: default options, the VineJS
 * validator, the serialisable form the editor draws, the variables a block writes and
 * the English locale file. Plugin authors declare fields once and get all of these.
 */
import vine from '@vinejs/vine'
import type { FieldContext, MessagesProviderContact, SchemaTypes } from '@vinejs/vine/types'
import {
  VARIABLE_REFERENCE,
  enumValues,
  isShown,
  type Field,
  type Fields,
  type ShowIf,
} from './fields.js'
import {
  forSurface,
  pluginSlug,
  type PluginDeclaration,
  type PluginSurface,
} from './define_plugin.js'
import type { FormDescription, FormField } from '../../packages/sdk/src/form_types.js'

type Declaration = PluginDeclaration<any, any, any>

/** The fields that apply to the options of a block: shared ones, then the action's. */
export function fieldsOf(declaration: Declaration, action?: string | null): Fields {
  const actionFields = action ? declaration.actions?.[action]?.options : undefined
  return { ...declaration.options, ...actionFields }
}

// ---------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value)
}

function defaultsOfFields(fields: Fields): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  for (const [name, declared] of Object.entries(fields)) {
    if (declared.defaultValue !== undefined) {
      defaults[name] = clone(declared.defaultValue)
    } else if (declared.kind === 'object') {
      const nested = defaultsOfFields(declared.fields)
      if (Object.keys(nested).length > 0) defaults[name] = nested
    }
  }
  return defaults
}

/**
 * The options of a freshly dropped block: every declared default, nested objects
 * included. With an action, options.action is set and the action's defaults added.
 */
export function defaultsOf(declaration: Declaration, action?: string): Record<string, unknown> {
  const defaults = defaultsOfFields(fieldsOf(declaration, action))
  return action ? { action, ...defaults } : defaults
}

/**
 * What an editor shows for a plugin serving its surface: the form and the defaults of a
 * freshly dropped block, without the fields and actions kept to the other surface. When
 * that leaves one action of several, a dropped block starts on it.
 */
export function editorViewOf(declaration: Declaration, surface: PluginSurface) {
  const view = forSurface(declaration, surface)
  const actions = Object.keys(view.actions ?? {})
  const only =
    actions.length === 1 && Object.keys(declaration.actions ?? {}).length > 1
      ? actions[0]
      : undefined
  return { defaults: defaultsOf(view, only), form: formOf(view) }
}

/** The items of a freshly dropped block (without ids: the editor adds them). */
export function defaultItemsOf(declaration: Declaration): Record<string, unknown>[] {
  return clone([...(declaration.items?.defaultItems ?? [])]) as Record<string, unknown>[]
}

// ---------------------------------------------------------------------------
// Validator
// ---------------------------------------------------------------------------

export type ValidationMode = 'save' | 'run'

export interface ValidatorOptions {
  /**
   * 'run' (default) enforces required fields and list minimums; 'save' lets a draft be
   * incomplete. Types, enums and numeric bounds are enforced in both.
   */
  mode?: ValidationMode
}

const MESSAGES: Record<string, string> = {
  'required': '{{ field }} is required',
  'string': '{{ field }} must be a text',
  'number': '{{ field }} must be a number',
  'numberOrVariable': '{{ field }} must be a number or a variable',
  'boolean': '{{ field }} must be true or false',
  'min': '{{ field }} must be at least {{ min }}',
  'max': '{{ field }} must be at most {{ max }}',
  'maxLength': '{{ field }} must be at most {{ max }} characters long',
  'enum': '{{ field }} must be one of {{ choices }}',
  'object': '{{ field }} must be an object',
  'array': '{{ field }} must be a list',
  'array.minLength': '{{ field }} needs at least {{ min }} items',
  'array.maxLength': '{{ field }} accepts at most {{ max }} items',
  'json': '{{ field }} must be valid JSON',
}

/**
 * Names fields by their declared label ('Maximum must be at most 10') instead of their
 * key, looking labels up by wildcard path so that list items are covered.
 */
class LabelledMessages implements MessagesProviderContact {
  constructor(private labels: Record<string, string>) {}

  getMessage(rawMessage: string, rule: string, field: FieldContext, args?: Record<string, any>) {
    const label = this.labels[field.wildCardPath] ?? String(field.name)
    const template = MESSAGES[rule] ?? rawMessage
    const data: Record<string, unknown> = { field: label, ...args }
    if (Array.isArray(data.choices)) data.choices = data.choices.join(', ')
    return template.replace(/{{\s*(\w+)\s*}}/g, (_, key: string) =>
      data[key] === undefined ? '' : String(data[key])
    )
  }
}

function humanize(name: string) {
  const words = name
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function labelOf(name: string, declared: Field) {
  return declared.label ?? humanize(name)
}

const filledRule = vine.createRule<{ showIf?: ShowIf }>((value, options, field) => {
  if (!isShown(options.showIf, field.parent, field.data)) return
  const empty =
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  if (empty) field.report(MESSAGES.required, 'required', field)
})

const numberOrVariableRule = vine.createRule<{ min?: number; max?: number }>(
  (value, options, field) => {
    if (typeof value === 'string' && VARIABLE_REFERENCE.test(value)) return
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      field.report(MESSAGES.numberOrVariable, 'numberOrVariable', field)
      return
    }
    if (options.min !== undefined && number < options.min) {
      field.report(MESSAGES.min, 'min', field, { min: options.min })
      return
    }
    if (options.max !== undefined && number > options.max) {
      field.report(MESSAGES.max, 'max', field, { max: options.max })
      return
    }
    if (number !== value) field.mutate(number, field)
  }
)

const patternRule = vine.createRule<{ pattern: string; message?: string }>(
  (value, options, field) => {
    if (typeof value !== 'string' || value === '' || value.includes('{{')) return
    if (!new RegExp(options.pattern).test(value)) {
      field.report(options.message ?? '{{ field }} has an invalid format', 'pattern', field)
    }
  }
)

/**
 * One absolute http(s) URL. A second scheme inside it (a default value left in place and a
 * new one pasted after it) parses as a path, so it is refused by name.
 */
export function urlProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be a full URL, such as https://example.com/v1'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'must start with http:// or https://'
  if (/\s/.test(value) || /[a-z]+:\/\//i.test(value.slice(url.protocol.length + 2)))
    return 'must hold one URL only'
  return null
}

const urlRule = vine.createRule((value, _, field) => {
  if (typeof value !== 'string' || value === '' || value.includes('{{')) return
  const problem = urlProblem(value)
  if (problem) field.report(`{{ field }} ${problem}`, 'url', field)
})

const jsonRule = vine.createRule((value, _, field) => {
  if (typeof value !== 'string' || value.trim() === '' || value.includes('{{')) return
  try {
    JSON.parse(value)
  } catch {
    field.report(MESSAGES.json, 'json', field)
  }
})

interface BuildContext {
  mode: ValidationMode
  labels: Record<string, string>
}

function optionalString() {
  return vine.string().nullable().optional()
}

function schemaOfField(declared: Field, path: string, ctx: BuildContext): SchemaTypes {
  switch (declared.kind) {
    case 'string': {
      let schema = vine.string()
      if (declared.maxLength !== undefined) schema = schema.maxLength(declared.maxLength)
      if (declared.format === 'url') schema = schema.use(urlRule())
      if (declared.pattern) {
        schema = schema.use(
          patternRule({ pattern: declared.pattern, message: declared.patternMessage })
        )
      }
      return schema
    }
    case 'number':
      if (declared.allowVariables) {
        return vine.any().use(numberOrVariableRule({ min: declared.min, max: declared.max }))
      } else {
        let schema = vine.number()
        if (declared.min !== undefined) schema = schema.min(declared.min)
        if (declared.max !== undefined) schema = schema.max(declared.max)
        return schema
      }
    case 'boolean':
      return vine.boolean()
    case 'enum':
      return declared.optionsFrom ? vine.string() : vine.enum(enumValues(declared))
    case 'variable':
    case 'credentials':
      return vine.string()
    case 'code':
      return declared.lang === 'json' ? vine.string().use(jsonRule()) : vine.string()
    case 'json':
      return vine.any()
    case 'object':
      return objectSchema(declared.fields, path, ctx)
    case 'list': {
      const item = objectSchema(declared.fields, `${path}.*`, ctx, { id: optionalString() })
      let schema = vine.array(item)
      if (declared.min !== undefined && ctx.mode === 'run') schema = schema.minLength(declared.min)
      if (declared.max !== undefined) schema = schema.maxLength(declared.max)
      return schema
    }
    case 'keyValue':
      return vine.array(
        vine
          .object({ id: optionalString(), key: optionalString(), value: optionalString() })
          .allowUnknownProperties()
      )
    case 'responseMapping':
      return vine.array(
        vine
          .object({
            id: optionalString(),
            [declared.key]: optionalString(),
            variableId: optionalString(),
          })
          .allowUnknownProperties()
      )
  }
}

function propertySchema(name: string, declared: Field, path: string, ctx: BuildContext) {
  ctx.labels[path] = labelOf(name, declared)
  const schema: any = schemaOfField(declared, path, ctx)
  if (ctx.mode === 'run' && declared.required) {
    const showIf = declared.showIf
    return schema
      .optional()
      .requiredWhen((field: FieldContext) => isShown(showIf, field.parent, field.data))
      .use(filledRule({ showIf }))
  }
  // Imports of other tools store null for cleared fields; treat it as absent.
  return 'nullable' in schema ? schema.nullable().optional() : schema.optional()
}

function propertiesOf(fields: Fields, prefix: string, ctx: BuildContext) {
  const properties: Record<string, SchemaTypes> = {}
  for (const [name, declared] of Object.entries(fields)) {
    const path = prefix ? `${prefix}.${name}` : name
    properties[name] = propertySchema(name, declared, path, ctx)
  }
  return properties
}

/** Unknown keys pass through untouched, so imported bots keep data we do not declare. */
function objectSchema(
  fields: Fields,
  prefix: string,
  ctx: BuildContext,
  extra: Record<string, SchemaTypes> = {}
) {
  return vine.object({ ...extra, ...propertiesOf(fields, prefix, ctx) }).allowUnknownProperties()
}

function hasCredentialsField(fields: Fields) {
  return Object.values(fields).some((declared) => declared.kind === 'credentials')
}

/**
 * A compiled VineJS validator of a block's options. Error messages name fields by their
 * label. Blocks with actions validate the chosen action's fields too.
 */
export function validatorFor(declaration: Declaration, options: ValidatorOptions = {}) {
  const ctx: BuildContext = { mode: options.mode ?? 'run', labels: {} }
  const common = declaration.options ?? {}
  const extra: Record<string, SchemaTypes> = {}
  const actionNames = Object.keys(declaration.actions ?? {})
  if (actionNames.length > 0) {
    ctx.labels.action = 'Action'
    extra.action = vine.enum(actionNames).nullable().optional()
  }
  if (declaration.credentials && !hasCredentialsField(common)) {
    ctx.labels.credentialsId = 'Account'
    extra.credentialsId = optionalString()
  }

  let schema: any = objectSchema(common, '', ctx, extra)
  if (actionNames.length > 0) {
    const branches = actionNames.map((name) =>
      vine.group.if(
        (data) => data.action === name,
        propertiesOf(declaration.actions![name].options ?? {}, '', ctx)
      )
    )
    schema = schema.merge(vine.group([...branches, vine.group.else({})]))
  }
  const validator = vine.compile(schema)
  validator.messagesProvider = new LabelledMessages(ctx.labels)
  return validator
}

/** A compiled validator of a block's items (choice buttons, condition branches...). */
export function itemsValidatorFor(declaration: Declaration, options: ValidatorOptions = {}) {
  const ctx: BuildContext = { mode: options.mode ?? 'run', labels: { items: 'Items' } }
  const itemsDeclaration = declaration.items ?? { fields: {} }
  const item = objectSchema(itemsDeclaration.fields, 'items.*', ctx, {
    id: optionalString(),
    outgoingEdgeId: optionalString(),
  })
  let items = vine.array(item)
  if (itemsDeclaration.min !== undefined && ctx.mode === 'run')
    items = items.minLength(itemsDeclaration.min)
  if (itemsDeclaration.max !== undefined) items = items.maxLength(itemsDeclaration.max)
  const validator = vine.compile(vine.object({ items: items.optional() }).allowUnknownProperties())
  validator.messagesProvider = new LabelledMessages(ctx.labels)
  return validator
}

// ---------------------------------------------------------------------------
// Form description
// ---------------------------------------------------------------------------

// The shapes are the SDK package's (a custom form.tsx receives them): one declaration.
export type { FormDescription, FormField } from '../../packages/sdk/src/form_types.js'

function formFields(fields: Fields, i18nPrefix: string, pluginId?: string): FormField[] {
  return Object.entries(fields).map(([name, declared]) => {
    // __value is a type-level phantom and never set, so only nested fields need removing.
    const { fields: nested, ...rest } = declared as Field & { fields?: Fields }
    const i18nKey = `${i18nPrefix}.${name}`
    const described: FormField = {
      ...(structuredClone(rest) as Partial<FormField>),
      name,
      kind: declared.kind,
      label: labelOf(name, declared),
      i18nKey,
    }
    // The editor asks POST /api/plugins/{pluginId}/fetchers/{fetcher} for the options.
    if (described.optionsFrom && pluginId) described.optionsFrom.pluginId = pluginId
    if (declared.kind === 'list')
      described.itemFields = formFields(nested!, `${i18nKey}.fields`, pluginId)
    if (declared.kind === 'object')
      described.fields = formFields(nested!, `${i18nKey}.fields`, pluginId)
    return described
  })
}

/** The form of a plugin as JSON: what the generic React renderer draws. */
export function formOf(declaration: Declaration, surface?: PluginSurface): FormDescription {
  const form: FormDescription = {
    id: declaration.id,
    slug: pluginSlug(declaration),
    name: declaration.name,
    category: declaration.category,
    storedIn: declaration.storedIn ?? 'options',
    fields: formFields(declaration.options ?? {}, 'fields', declaration.id),
  }
  if (declaration.actions) {
    form.actions = Object.entries(declaration.actions)
      // An editor lists only the actions its surface runs (ActionDeclaration.surfaces).
      .filter(
        ([, action]: [string, any]) =>
          !surface || !action.surfaces || action.surfaces.includes(surface)
      )
      .map(([name, action]: [string, any]) => ({
        name,
        label: action.label,
        ...(action.description ? { description: action.description } : {}),
        fields: formFields(action.options ?? {}, `actions.${name}.fields`, declaration.id),
      }))
  }
  if (declaration.credentials) form.credentials = formFields(declaration.credentials, 'credentials')
  if (declaration.items) {
    form.items = {
      fields: formFields(declaration.items.fields, 'items', declaration.id),
      min: declaration.items.min,
      max: declaration.items.max,
    }
  }
  return form
}

// ---------------------------------------------------------------------------
// Written variables
// ---------------------------------------------------------------------------

function collectWritten(fields: Fields, values: unknown, root: unknown, into: string[]) {
  if (values === null || typeof values !== 'object') return
  const record = values as Record<string, unknown>
  for (const [name, declared] of Object.entries(fields)) {
    if (!isShown(declared.showIf, record, root)) continue
    const value = record[name]
    if (
      declared.kind === 'variable' &&
      declared.writes &&
      typeof value === 'string' &&
      value !== ''
    ) {
      into.push(value)
    } else if (declared.kind === 'responseMapping' && Array.isArray(value)) {
      for (const entry of value) {
        if (typeof entry?.variableId === 'string' && entry.variableId !== '')
          into.push(entry.variableId)
      }
    } else if (declared.kind === 'object') {
      collectWritten(declared.fields, value, root, into)
    } else if (declared.kind === 'list' && Array.isArray(value)) {
      for (const item of value) collectWritten(declared.fields, item, root, into)
    }
  }
}

/**
 * The ids of the variables a configured block writes: variable fields declared with
 * `writes: true` and response mappings, skipping fields hidden by their showIf.
 */
export function writtenVariablesOf(declaration: Declaration, options: unknown): string[] {
  const action = (options as any)?.action
  const written: string[] = []
  const fields = fieldsOf(declaration, typeof action === 'string' ? action : undefined)
  collectWritten(fields, options, options, written)
  return [...new Set(written)]
}

export { unsubstitutedKeysOf } from '../../packages/sdk/src/options.js'

// ---------------------------------------------------------------------------
// Locale
// ---------------------------------------------------------------------------

interface LocaleField {
  label: string
  helperText?: string
  placeholder?: string
  itemLabel?: string
  fields?: Record<string, LocaleField>
  options?: Record<string, string>
}

function localeFields(fields: Fields): Record<string, LocaleField> {
  const locale: Record<string, LocaleField> = {}
  for (const [name, declared] of Object.entries(fields)) {
    const entry: LocaleField = { label: labelOf(name, declared) }
    if (declared.helperText) entry.helperText = declared.helperText
    if ('placeholder' in declared && declared.placeholder) entry.placeholder = declared.placeholder
    if (declared.kind === 'list' && declared.itemLabel) entry.itemLabel = declared.itemLabel
    if (declared.kind === 'enum' && !declared.optionsFrom) {
      entry.options = Object.fromEntries(
        declared.options.map((option) => [option.value, option.label])
      )
    }
    if (declared.kind === 'list' || declared.kind === 'object')
      entry.fields = localeFields(declared.fields)
    locale[name] = entry
  }
  return locale
}

/**
 * The English locale of a plugin, as its locales/en.json holds it: the keys the form's
 * i18nKey values point at. Other languages translate the same keys.
 */
export function localeOf(declaration: Declaration) {
  const locale: Record<string, unknown> = { name: declaration.name }
  if (declaration.description) locale.description = declaration.description
  locale.fields = localeFields(declaration.options ?? {})
  if (declaration.actions) {
    locale.actions = Object.fromEntries(
      Object.entries(declaration.actions).map(([name, action]: [string, any]) => [
        name,
        {
          label: action.label,
          ...(action.description ? { description: action.description } : {}),
          fields: localeFields(action.options ?? {}),
        },
      ])
    )
  }
  if (declaration.credentials) locale.credentials = localeFields(declaration.credentials)
  if (declaration.items) locale.items = localeFields(declaration.items.fields)
  // The editor labels an agent's slots and explains a node's URL in the builder's language.
  if (declaration.attachments?.length) {
    locale.attachments = Object.fromEntries(
      declaration.attachments.map((slot) => [slot.name, { label: slot.label ?? slot.name }])
    )
  }
  if (declaration.exposesUrl?.hint) locale.url = { hint: declaration.exposesUrl.hint }
  return locale
}
