/** Deep equality of JSON values, ignoring key order and undefined properties. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return (a ?? null) === (b ?? null)
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((entry, index) => jsonEqual(entry, other[index]))
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const keys = new Set(
    [...Object.keys(left), ...Object.keys(right)].filter(
      (key) => left[key] !== undefined || right[key] !== undefined
    )
  )
  for (const key of keys) if (!jsonEqual(left[key], right[key])) return false
  return true
}
