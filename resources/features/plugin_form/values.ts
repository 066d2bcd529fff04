import type { FormField } from './types'

/** A short random id for list items, key/value rows and mappings (like the editor's ids). */
export function createItemId() {
  const bytes = new Uint8Array(12)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('')
}

/** The default values of a set of fields (nested objects included), as the server derives them. */
export function defaultsOfFields(fields: readonly FormField[]): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  for (const field of fields) {
    if (field.defaultValue !== undefined) {
      defaults[field.name] = structuredClone(field.defaultValue)
    } else if (field.kind === 'object' && field.fields) {
      const nested = defaultsOfFields(field.fields)
      if (Object.keys(nested).length > 0) defaults[field.name] = nested
    }
  }
  return defaults
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {}
}

export function asArray<T = Record<string, unknown>>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : []
}

/** Whether some error lies at `path` or below it (to flag a group that holds errors). */
export function hasErrorWithin(errors: Record<string, unknown>, path: string) {
  return Object.keys(errors).some(
    (key) => errors[key] && (key === path || key.startsWith(`${path}.`))
  )
}

/**
 * Server errors keyed by the fields of a record's data: the credentials form posts
 * `{type, name, data}`, so errors may come as 'data.apiKey' or 'apiKey'.
 */
export function errorsUnder(errors: Record<string, string | undefined>, prefix: string) {
  const scoped: Record<string, string | undefined> = {}
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(`${prefix}.`)) scoped[key.slice(prefix.length + 1)] = message
    else scoped[key] ??= message
  }
  return scoped
}
