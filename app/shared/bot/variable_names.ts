/**
 * The variable name rule: letters, digits, spaces, underscore and
 * hyphen; at most 255 characters; never empty. Letters and digits of any script count,
 * so that builders name variables in their own language ("Prénom", "Имя").
 */

export const VARIABLE_NAME_MAX_LENGTH = 255

const FORBIDDEN = /[^\p{L}\p{M}\p{Nd} _-]/gu
const ALLOWED = /^[\p{L}\p{M}\p{Nd} _-]+$/u

/**
 * Strips what the rule forbids, as the picker does while the builder types. Does not
 * trim: a space typed between two words must survive the keystroke before the second.
 */
export function sanitizeVariableName(name: string): string {
  // Array.from counts characters, not UTF-16 units: never cuts a letter in half.
  return Array.from(name.replace(FORBIDDEN, '')).slice(0, VARIABLE_NAME_MAX_LENGTH).join('')
}

/** Why a stored name breaks the rule, or undefined when it is fine. */
export function variableNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'Variable name must be a text'
  if (name.trim() === '') return 'Variable name cannot be empty'
  if (Array.from(name).length > VARIABLE_NAME_MAX_LENGTH) {
    return `Variable name must be at most ${VARIABLE_NAME_MAX_LENGTH} characters long`
  }
  if (!ALLOWED.test(name)) {
    return 'Variable name may only hold letters, digits, spaces, underscores and hyphens'
  }
  return undefined
}

/**
 * A name the rule accepts for a variable whose name it refuses, not in `taken` (which it
 * joins): the name cleaned, then " 2", " 3"... within the length limit.
 */
export function freeVariableName(raw: unknown, taken: Set<string>): string {
  const base = sanitizeVariableName(String(raw ?? '')).trim() || 'Variable'
  let name = base
  for (let n = 2; taken.has(name); n++) {
    const suffix = ` ${n}`
    name =
      Array.from(base)
        .slice(0, VARIABLE_NAME_MAX_LENGTH - suffix.length)
        .join('') + suffix
  }
  taken.add(name)
  return name
}
