/**
 * Reads a value at a path like `data.items[0].name` (or `data.items.0.name`), for response
 * mappings of HTTP requests and webhooks. An empty path or "data" alone is the whole value.
 * Browser-safe.
 */
export function readPath(value: unknown, path: string | undefined): unknown {
  const trimmed = (path ?? '').trim()
  if (trimmed === '' || trimmed === '.') return value
  const parts = trimmed
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
  let current: unknown = value
  for (const part of parts) {
    if (current === null || current === undefined) return undefined
    if (Array.isArray(current) && /^\d+$/.test(part)) {
      current = current[Number(part)]
    } else if (typeof current === 'object') {
      current = (current as Record<string, unknown>)[part]
    } else {
      return undefined
    }
  }
  return current
}

/** How a mapped value is stored in a variable: text, lists of text, JSON for objects. */
export function toVariableValue(value: unknown): string | string[] | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    return value.map((item) =>
      typeof item === 'string'
        ? item
        : item === null || item === undefined
          ? ''
          : typeof item === 'object'
            ? JSON.stringify(item)
            : String(item)
    )
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
