/**
 * What the code fields check before a run, without CodeMirror (unit-tested on its own):
 * {{variable}} references are stood in for by text of the same length, so that positions
 * still point into what the builder typed.
 */

/** How a field's text reaches the flow's variables (CodeField.variables). */
export type VariableSyntax = 'braces' | 'names'

export interface CodeProblem {
  from: number
  to: number
  /** 1-based. */
  line: number
  message: string
}

/** `{{` and what follows it up to the cursor, while a variable name is being typed. */
export const OPEN_REFERENCE = /\{\{[^{}\n]*$/

const REFERENCE = /\{\{[^{}]+?\}\}/g

/**
 * Code with each {{Name}} as an identifier of the same length: the runner replaces a
 * reference with an expression (`variables["Name"]`), so it parses where a name does.
 */
export function referencesAsNames(code: string) {
  return code.replace(REFERENCE, (reference) => '_'.repeat(reference.length))
}

/**
 * JSON with each {{Name}} outside a string as a string of the same length (a value or a
 * key, once substituted); references inside strings stay as they are.
 */
export function referencesAsJsonStrings(text: string) {
  let out = ''
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      out += char
      if (char === '\\') {
        out += text[i + 1] ?? ''
        i++
      } else if (char === '"') inString = false
      continue
    }
    if (char === '"') {
      inString = true
      out += char
      continue
    }
    if (char === '{' && text[i + 1] === '{') {
      REFERENCE.lastIndex = i
      const match = REFERENCE.exec(text)
      if (match && match.index === i) {
        out += `"${'_'.repeat(match[0].length - 2)}"`
        i += match[0].length - 1
        continue
      }
    }
    out += char
  }
  return out
}

/**
 * Where JSON.parse stops on the text, or null when it parses. V8 names the position
 * ("at position 12"); "Unexpected end" points at the end.
 */
export function jsonProblem(text: string, withReferences: boolean) {
  const source = withReferences ? referencesAsJsonStrings(text) : text
  try {
    JSON.parse(source)
    return null
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    const position = /position (\d+)/.exec(message)
    const from = position ? Math.min(Number(position[1]), text.length) : text.trimEnd().length
    return { from, to: from }
  }
}
