import AppError from '#exceptions/app_error'

/**
 * Limits checked on a request body before anything walks it (docs/security.md, "Request
 * limits"). Parsing and copying a parsed body are recursive (the framework deep-clones every
 * body it parses): a few kilobytes of `[[[[...` would otherwise exhaust the stack.
 */
export const MAX_BODY_DEPTH = 256

/** Error codes of the request limits; the exception handler answers them without a session. */
export const REQUEST_LIMIT_CODES = new Set([
  'E_BODY_TOO_DEEP',
  'E_REQUEST_ENTITY_TOO_LARGE',
  'E_INVALID_JSON',
  'E_ENCODING_UNSUPPORTED',
  'E_REQUEST_ABORTED',
])

export function bodyTooDeep(max = MAX_BODY_DEPTH) {
  return new AppError('Request body is nested too deeply', {
    status: 400,
    code: 'E_BODY_TOO_DEEP',
    description: `Objects and arrays may be nested at most ${max} levels deep.`,
  })
}

export function bodyTooLarge(limit: string) {
  return new AppError('Request body is too large', {
    status: 413,
    code: 'E_REQUEST_ENTITY_TOO_LARGE',
    description: `The body may be at most ${limit}.`,
  })
}

export function invalidJson(description: string) {
  return new AppError('Invalid JSON', { status: 400, code: 'E_INVALID_JSON', description })
}

/**
 * Whether raw JSON text nests deeper than `max`: one pass over the characters, brackets
 * inside strings ignored. Runs in constant stack, so it is safe on any input.
 */
export function exceedsDepth(text: string, max = MAX_BODY_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
      continue
    }
    if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return false
}

/** Whether a parsed value nests deeper than `max` (an explicit stack: safe on any value). */
export function valueExceedsDepth(value: unknown, max = MAX_BODY_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth + 1 > max) return true
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}
