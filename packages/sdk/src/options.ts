import type { PluginDeclaration } from './define_plugin.js'
import type { Fields } from './fields.js'

type Declaration = Pick<PluginDeclaration<any, any, any>, 'options' | 'actions'>

function fieldSetsOf(declaration: Declaration): Fields[] {
  return [
    declaration.options ?? {},
    ...Object.values(declaration.actions ?? {}).map((action: any) => action.options ?? {}),
  ]
}

/** A plugin's declaration never changes: these keys are listed once (every block run reads them). */
const unsubstituted = new WeakMap<Declaration, readonly string[]>()

/**
 * Keys of the fields substitution leaves alone: code fields, whose text reaches the sandbox as
 * is, and variable fields, which hold a variable's id (or, in a workflow condition, a
 * reference such as {{$input.status}} naming the value to compare), never text to fill in, so
 * a condition is evaluated with the values of the moment.
 */
export function unsubstitutedKeysOf(declaration: Declaration): readonly string[] {
  let known = unsubstituted.get(declaration)
  if (!known) {
    const keys = new Set<string>()
    const walk = (fields: Fields) => {
      for (const [name, declared] of Object.entries(fields)) {
        if (declared.kind === 'code' || declared.kind === 'variable') keys.add(name)
        if (declared.kind === 'object' || declared.kind === 'list') walk(declared.fields)
      }
    }
    for (const fields of fieldSetsOf(declaration)) walk(fields)
    known = [...keys]
    unsubstituted.set(declaration, known)
  }
  return known
}

function numberOf(text: string): number | undefined {
  const trimmed = text.trim()
  const value = trimmed === '' ? Number.NaN : Number(trimmed)
  return Number.isFinite(value) ? value : undefined
}

/** Told of a number field whose substituted text is not a number: its label and the text. */
export type NotANumber = (label: string, text: string) => void

/** Whether some field, nested ones included, is a number (declarations never change). */
const holdsNumbers = new WeakMap<Fields, boolean>()

function hasNumberField(fields: Fields): boolean {
  let known = holdsNumbers.get(fields)
  if (known === undefined) {
    known = Object.values(fields).some(
      (declared) =>
        declared.kind === 'number' ||
        ((declared.kind === 'object' || declared.kind === 'list') &&
          hasNumberField(declared.fields))
    )
    holdsNumbers.set(fields, known)
  }
  return known
}

function coerce(
  fields: Fields,
  value: Record<string, unknown>,
  notANumber?: NotANumber
): Record<string, unknown> {
  // Most blocks (a bubble, a condition, a set variable) have no number to read: no copy.
  if (!hasNumberField(fields)) return value
  const out: Record<string, unknown> = { ...value }
  for (const [name, declared] of Object.entries(fields)) {
    const current = out[name]
    if (declared.kind === 'number' && typeof current === 'string') {
      // A '{{Variable}}' was stored; once substituted the runner gets the number it declared,
      // or nothing when the variable held no number (as if the field were left empty).
      const parsed = numberOf(current)
      if (parsed === undefined) delete out[name]
      else out[name] = parsed
      // An empty variable is an empty field; other text is the builder's to hear about.
      if (parsed === undefined && current.trim() !== '')
        notANumber?.(declared.label ?? name, current)
    } else if (declared.kind === 'object' && current && typeof current === 'object') {
      out[name] = coerce(declared.fields, current as Record<string, unknown>, notANumber)
    } else if (declared.kind === 'list' && Array.isArray(current)) {
      out[name] = current.map((item) =>
        item && typeof item === 'object' ? coerce(declared.fields, item, notANumber) : item
      )
    }
  }
  return out
}

/**
 * Substituted options as a runner receives them: a variable-capable number field
 * (`allowVariables`) holds text until its variables are substituted; it reaches the runner
 * as a number, the type its declaration gives it.
 */
export function withDeclaredTypes(
  declaration: Declaration,
  options: Record<string, unknown>,
  notANumber?: NotANumber
): Record<string, unknown> {
  let out = coerce(declaration.options ?? {}, options, notANumber)
  const action = typeof options.action === 'string' ? declaration.actions?.[options.action] : null
  if (action?.options) out = coerce(action.options, out, notANumber)
  return out
}

/** The error log of a number field whose variable held no number (the field is left unset). */
export function notANumberLog(pluginName: string, label: string, text: string) {
  return {
    status: 'error' as const,
    description: `${pluginName}: ${label} is not a number ("${text}")`,
  }
}
