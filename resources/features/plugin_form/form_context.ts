import { type ComponentType, type ReactNode } from 'react'
import type {
  FormCredentials,
  FormErrors,
  FormField,
  FormVariable,
  VariableFieldProps,
} from './types'
import { type ExpressionScope } from './expressions'

/**
 * What every control of the generated form is given (PluginForm draws the rows, the control
 * files draw one field kind each): the form's context, a control's props and small helpers.
 */

export interface Ctx {
  errors: FormErrors
  readOnly: boolean
  variables: readonly FormVariable[]
  credentials: readonly FormCredentials[]
  notes: Record<string, ReactNode>
  /** The whole value, for showIf paths starting with '$.'. */
  root: unknown
  idPrefix: string
  VariableField?: ComponentType<VariableFieldProps>
  /** What `{{` completes in the text fields (expressions.ts). */
  scope: ExpressionScope
}

export interface ControlProps {
  field: FormField
  path: string
  value: unknown
  onChange: (next: unknown) => void
  ctx: Ctx
  /** The input's id, aria-describedby and aria-invalid. */
  id: string
  /** The id of the field's label, for inputs a <label for> cannot name (the code editor). */
  labelId: string
  /** A code field holds code now (its codeIf holds, or it has none). */
  asCode: boolean
  describedBy?: string
  invalid: boolean
  testId: string
}

export function domId(prefix: string, path: string) {
  return `${prefix}-${path.replace(/[^\w-]/g, '_')}`
}

export function textOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : String(value)
}

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

export function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
