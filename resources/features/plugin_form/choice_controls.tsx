import { useEffect } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { PlusIcon } from 'lucide-react'
import { Input } from '~/components/ui/input'
import { Button } from '~/components/ui/button'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import type { FormVariable, VariableFieldProps } from './types'
import { asRecord } from './values'
import { FetchedOptionsInput } from './fetched_options'
import { ExpressionInput } from './expression_input'
import { textOf, type ControlProps, type Ctx } from './form_context'

/**
 * The controls of the generated form that pick one of a list: enums, variables, subjects
 * (a variable or a value) and workspace credentials.
 */

export function EnumControl({
  field,
  value,
  onChange,
  ctx,
  id,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  const { t } = useTranslation()
  const options = field.options ?? []
  // Options fetched at edit time (optionsFrom) and none given: any text is accepted.
  if (options.length === 0 && field.optionsFrom?.pluginId) {
    return (
      <FetchedOptionsInput
        field={field}
        value={textOf(value)}
        onChange={(next) => onChange(next === '' ? undefined : next)}
        root={asRecord(ctx.root)}
        readOnly={ctx.readOnly}
        id={id}
        describedBy={describedBy}
        invalid={invalid}
        testId={testId}
      />
    )
  }
  if (options.length === 0) {
    return (
      <Input
        id={id}
        value={textOf(value)}
        placeholder={field.placeholder}
        readOnly={ctx.readOnly}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required={field.required || undefined}
        data-testid={testId}
      />
    )
  }
  const current = typeof value === 'string' ? value : ''
  const unknown = current !== '' && !options.some((option) => option.value === current)
  return (
    <Select value={current} onValueChange={(next) => onChange(next)} disabled={ctx.readOnly}>
      <SelectTrigger
        id={id}
        className="w-full"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required={field.required || undefined}
        data-testid={testId}
      >
        <SelectValue placeholder={field.placeholder ?? t('pluginForm.choose')} />
      </SelectTrigger>
      <SelectContent>
        {unknown && <SelectItem value={current}>{current}</SelectItem>}
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

interface RecordSelectProps {
  id?: string
  value: unknown
  onChange: (next: string) => void
  records: readonly { id: string; name: string }[]
  disabled?: boolean
  /** Shown when nothing is chosen; `emptyText` when there is nothing to choose. */
  placeholder: string
  emptyText: string
  /** The label of a stored id that matches no record (kept so nothing is lost). */
  unknownText: (id: string) => string
  describedBy?: string
  invalid?: boolean
  required?: boolean
  testId?: string
  ariaLabel?: string
  size?: 'sm' | 'default'
  className?: string
}

/** A select of named records (variables, credentials) storing the chosen id. */
function RecordSelect({
  id,
  value,
  onChange,
  records,
  disabled,
  placeholder,
  emptyText,
  unknownText,
  describedBy,
  invalid,
  required,
  testId,
  ariaLabel,
  size,
  className = 'w-full',
}: RecordSelectProps) {
  const current = typeof value === 'string' ? value : ''
  const empty = records.length === 0
  const unknown = current !== '' && !records.some((record) => record.id === current)
  return (
    <Select value={current} onValueChange={onChange} disabled={disabled || (empty && !unknown)}>
      <SelectTrigger
        id={id}
        size={size}
        className={className}
        aria-label={ariaLabel}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        data-testid={testId}
      >
        <SelectValue placeholder={empty ? emptyText : placeholder} />
      </SelectTrigger>
      <SelectContent>
        {unknown && <SelectItem value={current}>{unknownText(current)}</SelectItem>}
        {records.map((record) => (
          <SelectItem key={record.id} value={record.id}>
            {record.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

/** A select of the bot's variables by name, storing the id. */
function VariableSelect({
  variables,
  placeholder,
  ...props
}: Omit<RecordSelectProps, 'records' | 'placeholder' | 'emptyText' | 'unknownText'> & {
  variables: readonly FormVariable[]
  placeholder?: string
}) {
  const { t } = useTranslation()
  return (
    <RecordSelect
      {...props}
      records={variables}
      placeholder={placeholder ?? t('pluginForm.chooseVariable')}
      emptyText={t('pluginForm.noVariables')}
      unknownText={(id) => t('pluginForm.unknownVariable', { id })}
    />
  )
}

/**
 * A variable field that also takes an expression (what a condition compares): a variable
 * stored by id reads as `{{Name}}`, and typing exactly `{{Name}}` of a variable stores its
 * id again, so that conditions saved before expressions and after read the same.
 */
export function SubjectControl({
  field,
  value,
  onChange,
  ctx,
  id,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  const { t } = useTranslation()
  const stored = textOf(value)
  const variable = ctx.variables.find((candidate) => candidate.id === stored)
  const whole = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/.exec(stored)
  const named = whole ? ctx.variables.find((candidate) => candidate.name === whole[1]) : undefined
  // A variable created from this field exists only from the next render: its id then.
  useEffect(() => {
    if (named && !ctx.readOnly) onChange(named.id)
  }, [named, ctx.readOnly, onChange])
  return (
    <ExpressionInput
      id={id}
      scope={ctx.scope}
      value={variable ? `{{${variable.name}}}` : stored}
      readOnly={ctx.readOnly}
      placeholder={
        field.placeholder ??
        t('pluginForm.expressions.subjectPlaceholder', {
          variable: '{{Variable}}',
          expression: '{{$input.status}}',
        })
      }
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required={field.required || undefined}
      data-testid={testId}
      onChange={(text) => {
        const reference = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/.exec(text)
        const picked =
          reference && ctx.variables.find((candidate) => candidate.name === reference[1])
        onChange(picked ? picked.id : text.trim() === '' ? undefined : text)
      }}
    />
  )
}

/** A variable field: the injected one (the bot editor's picker) when given, else the select. */
export function VariableControl({
  ctx,
  value,
  onChange,
  ...props
}: Omit<VariableFieldProps, 'value' | 'onChange'> & {
  ctx: Ctx
  value: unknown
  onChange: (next: string) => void
}) {
  const Field = ctx.VariableField
  if (Field) {
    return (
      <Field {...props} value={typeof value === 'string' ? value : undefined} onChange={onChange} />
    )
  }
  return <VariableSelect {...props} value={value} onChange={onChange} variables={ctx.variables} />
}

export function CredentialsControl({
  field,
  value,
  onChange,
  ctx,
  id,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  const { t } = useTranslation()
  const choices = ctx.credentials.filter(
    (record) => !field.credentialType || record.type === field.credentialType
  )
  return (
    <div className="flex flex-wrap items-center gap-2">
      <RecordSelect
        id={id}
        value={value}
        onChange={onChange}
        records={choices}
        disabled={ctx.readOnly}
        placeholder={t('pluginForm.chooseCredentials')}
        emptyText={t('pluginForm.noCredentials')}
        unknownText={(current) => t('pluginForm.unknownCredentials', { id: current })}
        describedBy={describedBy}
        invalid={invalid}
        required={field.required}
        testId={testId}
        className="min-w-48 flex-1"
      />
      <Button variant="link" size="sm" asChild className="px-1">
        <Link href="/settings/account/credentials" data-testid={`${testId}-add`}>
          <PlusIcon aria-hidden />
          {t('pluginForm.addCredentials')}
        </Link>
      </Button>
    </div>
  )
}
