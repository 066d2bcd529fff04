import { useId } from 'react'
import { useTranslation } from 'react-i18next'
// Browser-safe: fields.ts imports nothing (it is the module plugin manifests use).
import { isShown } from '../../../app/plugins/fields'
import { Switch } from '~/components/ui/switch'
import { Badge } from '~/components/ui/badge'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { cn } from '~/lib/utils'
import type { FormField, PluginFormProps } from './types'
import { asRecord, hasErrorWithin } from './values'
import { useExpressionScope } from './expressions'
import { domId, type ControlProps, type Ctx } from './form_context'
import { CodeControl, JsonControl, NumberControl, StringControl } from './text_controls'
import { CredentialsControl, EnumControl, SubjectControl, VariableControl } from './choice_controls'
import {
  KeyValueControl,
  ListControl,
  ObjectControl,
  ResponseMappingControl,
} from './group_controls'

// The SDK package's declaration: a custom form.tsx receives the same props (CustomFormProps).
export type { PluginFormProps }

/** Kinds drawn as a group of inputs (a fieldset with a legend) rather than one input. */
const GROUP_KINDS = new Set<FormField['kind']>(['list', 'object', 'keyValue', 'responseMapping'])

const EMPTY: Record<string, never> = {}

/**
 * The generic form of a plugin: draws every field kind of a form description (app/plugins/
 * derive.ts), honours showIf and hidden, and shows each error under the field it names.
 */
export function PluginForm({
  fields,
  value,
  onChange,
  errors = EMPTY,
  readOnly = false,
  variables = [],
  credentials = [],
  notes = EMPTY,
  idPrefix,
  className,
  testId,
  VariableField,
}: PluginFormProps) {
  const generated = useId().replace(/[^\w-]/g, '')
  const record = asRecord(value)
  const scope = useExpressionScope(variables)
  const ctx: Ctx = {
    scope,
    errors,
    readOnly,
    variables,
    credentials,
    notes,
    root: record,
    idPrefix: idPrefix ?? `pf-${generated}`,
    VariableField,
  }
  return (
    <div className={cn('grid gap-5', className)} data-testid={testId}>
      <FieldList fields={fields} value={record} path="" onChange={onChange} ctx={ctx} />
    </div>
  )
}

export function FieldList({
  fields,
  value,
  path,
  onChange,
  ctx,
}: {
  fields: readonly FormField[]
  value: Record<string, unknown>
  path: string
  onChange: (next: Record<string, unknown>) => void
  ctx: Ctx
}) {
  return (
    <>
      {fields.map((field) => {
        if (field.hidden || !isShown(field.showIf, value, ctx.root)) return null
        const fieldPath = path ? `${path}.${field.name}` : field.name
        return (
          <FieldRow
            key={field.name}
            field={field}
            path={fieldPath}
            value={value[field.name]}
            siblings={value}
            ctx={ctx}
            onChange={(next) => {
              const copy = { ...value }
              if (next === undefined) delete copy[field.name]
              else copy[field.name] = next
              onChange(copy)
            }}
          />
        )
      })}
    </>
  )
}

function LabelText({ field, asCode = true }: { field: FormField; asCode?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <span>
        {field.label}
        {field.required && (
          <>
            <span aria-hidden className="ml-0.5 text-destructive">
              *
            </span>
            <span className="sr-only"> ({t('pluginForm.required')})</span>
          </>
        )}
      </span>
      {field.kind === 'code' && field.lang && asCode && (
        <Badge variant="outline" className="font-mono">
          {field.lang}
        </Badge>
      )}
    </>
  )
}

function FieldRow({
  field,
  path,
  value,
  siblings,
  onChange,
  ctx,
}: {
  field: FormField
  path: string
  value: unknown
  siblings: Record<string, unknown>
  onChange: (next: unknown) => void
  ctx: Ctx
}) {
  const id = domId(ctx.idPrefix, path)
  const labelId = `${id}-label`
  const asCode = field.kind !== 'code' || !field.codeIf || isShown(field.codeIf, siblings, ctx.root)
  const error = ctx.errors[path]
  const note = ctx.notes[path]
  const hintId = field.helperText ? `${id}-hint` : undefined
  const noteId = note ? `${id}-note` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, noteId, errorId].filter(Boolean).join(' ') || undefined
  const control: ControlProps = {
    field,
    path,
    value,
    onChange,
    ctx,
    id,
    labelId,
    asCode,
    describedBy,
    invalid: !!error,
    testId: `field-${path}`,
  }
  const footer = (
    <>
      <FieldHint id={hintId}>{field.helperText}</FieldHint>
      {note && (
        <p id={noteId} className="text-xs text-muted-foreground">
          {note}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </>
  )

  if (GROUP_KINDS.has(field.kind)) {
    return (
      <fieldset
        className="grid min-w-0 gap-2"
        data-field={path}
        aria-describedby={describedBy}
        aria-invalid={hasErrorWithin(ctx.errors, path) || undefined}
      >
        <legend className="mb-2 flex items-center gap-2 text-sm leading-none font-medium">
          <LabelText field={field} />
        </legend>
        <FieldControl {...control} />
        {footer}
      </fieldset>
    )
  }

  if (field.kind === 'boolean') {
    return (
      <div className="grid min-w-0 gap-2" data-field={path}>
        <div className="flex items-center gap-3">
          <FieldControl {...control} />
          <Label htmlFor={id}>
            <LabelText field={field} />
          </Label>
        </div>
        {footer}
      </div>
    )
  }

  return (
    <div className="grid min-w-0 gap-2" data-field={path}>
      <Label htmlFor={id} id={labelId}>
        <LabelText field={field} asCode={asCode} />
      </Label>
      <FieldControl {...control} />
      {footer}
    </div>
  )
}

function FieldControl(props: ControlProps) {
  switch (props.field.kind) {
    case 'string':
      return <StringControl {...props} />
    case 'number':
      return <NumberControl {...props} />
    case 'boolean':
      return (
        <Switch
          id={props.id}
          checked={props.value === true}
          onCheckedChange={(checked) => props.onChange(checked)}
          disabled={props.ctx.readOnly}
          aria-describedby={props.describedBy}
          aria-invalid={props.invalid || undefined}
          data-testid={props.testId}
        />
      )
    case 'enum':
      return <EnumControl {...props} />
    case 'variable':
      // Both editors: what a condition compares is a variable or any expression.
      if (props.field.expression) return <SubjectControl {...props} />
      return (
        <VariableControl
          ctx={props.ctx}
          id={props.id}
          value={props.value}
          onChange={props.onChange}
          disabled={props.ctx.readOnly}
          placeholder={props.field.placeholder}
          describedBy={props.describedBy}
          invalid={props.invalid}
          required={props.field.required}
          testId={props.testId}
        />
      )
    case 'credentials':
      return <CredentialsControl {...props} />
    case 'code':
      return <CodeControl {...props} />
    case 'json':
      return <JsonControl {...props} />
    case 'list':
      return <ListControl {...props} />
    case 'object':
      return <ObjectControl {...props} />
    case 'keyValue':
      return <KeyValueControl {...props} />
    case 'responseMapping':
      return <ResponseMappingControl {...props} />
    default:
      return null
  }
}
