import i18n from 'i18next'
import { clientDeclaration } from '~/lib/plugin_registry'
import { pluginNamespace } from '~/features/workflow_editor/plugin_locales'
import type { FormDescription, FormField } from './types'

/*
 * The server describes a plugin's form in English (its manifest). The builder reads it in
 * their language: plugins/<slug>/locales/<lang>.json holds the same keys as locales/en.json
 * (app/plugins/derive.ts, localeOf), loaded by plugin_locales.ts. The catalogue is walked
 * by field name rather than looked up by dotted key: option values and action names may
 * hold dots or spaces, which i18next would read as nesting.
 */

type Entry = Record<string, unknown> | undefined

function child(entry: Entry, key: string): Entry {
  const value = entry?.[key]
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
}

function text(entry: Entry, key: string, english: string): string
function text(entry: Entry, key: string, english: string | undefined): string | undefined
function text(entry: Entry, key: string, english: string | undefined) {
  if (english === undefined) return undefined
  const value = entry?.[key]
  return typeof value === 'string' && value.trim() !== '' ? value : english
}

function translateFields(fields: FormField[], entries: Entry): FormField[] {
  if (!entries) return fields
  return fields.map((field) => {
    const entry = child(entries, field.name)
    if (!entry) return field
    const options = child(entry, 'options')
    return {
      ...field,
      label: text(entry, 'label', field.label),
      helperText: text(entry, 'helperText', field.helperText),
      placeholder: text(entry, 'placeholder', field.placeholder),
      itemLabel: text(entry, 'itemLabel', field.itemLabel),
      options: field.options?.map((option) => ({
        ...option,
        label: text(options, option.value, option.label),
      })),
      itemFields: field.itemFields && translateFields(field.itemFields, child(entry, 'fields')),
      fields: field.fields && translateFields(field.fields, child(entry, 'fields')),
    }
  })
}

/** The plugin's catalogue in the current language, when it is loaded (else English stays). */
function catalogueOf(pluginId: string): Entry {
  const language = i18n.language
  if (!language || language === 'en') return undefined
  return i18n.getResourceBundle(language, pluginNamespace(pluginId)) as Entry
}

/** A plugin's form with its labels, hints, placeholders and option names translated. */
export function translateForm(pluginId: string, form: FormDescription): FormDescription {
  const catalogue = catalogueOf(pluginId)
  if (!catalogue) return form
  const actions = child(catalogue, 'actions')
  return {
    ...form,
    name: text(catalogue, 'name', form.name),
    fields: translateFields(form.fields, child(catalogue, 'fields')),
    actions: form.actions?.map((action) => {
      const entry = child(actions, action.name)
      return {
        ...action,
        label: text(entry, 'label', action.label),
        description: text(entry, 'description', action.description),
        fields: translateFields(action.fields, child(entry, 'fields')),
      }
    }),
    credentials:
      form.credentials && translateFields(form.credentials, child(catalogue, 'credentials')),
    items: form.items && {
      ...form.items,
      fields: translateFields(form.items.fields, child(catalogue, 'items')),
    },
  }
}

/** The fields of a credential type (a plugin's `credentials`), translated. */
export function translateCredentialFields(pluginId: string, fields: FormField[]): FormField[] {
  return translateFields(fields, child(catalogueOf(pluginId), 'credentials'))
}

/** A plugin's own name (its `name` key), in the current language when loaded. */
export function translatedPluginName(pluginId: string, english: string): string {
  return text(catalogueOf(pluginId), 'name', english)
}

/**
 * What an item without text of its own shows (a Loop's "Each iteration" exit): the label of
 * the choice it holds in an enum field of the plugin's items, translated.
 */
export function itemChoiceLabel(pluginId: string, item: object): string | undefined {
  const fields = clientDeclaration(pluginId)?.items?.fields as
    Record<string, { kind?: string; options?: readonly unknown[] }> | undefined
  if (!fields) return undefined
  for (const [name, declared] of Object.entries(fields)) {
    const value = (item as Record<string, unknown>)[name]
    if (declared.kind !== 'enum' || typeof value !== 'string') continue
    const option = declared.options?.find((candidate) =>
      typeof candidate === 'string' ? candidate === value : (candidate as any)?.value === value
    )
    const english =
      typeof option === 'object' && option !== null ? String((option as any).label) : value
    const options = child(child(child(catalogueOf(pluginId), 'items'), name), 'options')
    return text(options, value, english)
  }
  return undefined
}
