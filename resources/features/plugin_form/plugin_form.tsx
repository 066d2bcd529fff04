import { useEffect, useId, useState, type ComponentType, type ReactNode } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BracesIcon, EyeIcon, EyeOffIcon, PlusIcon, Trash2Icon } from 'lucide-react'
// Browser-safe: fields.ts imports nothing (it is the module plugin manifests use).
import { isShown } from '../../../app/plugins/fields'
import { Input } from '~/components/ui/input'
import { Switch } from '~/components/ui/switch'
import { Button } from '~/components/ui/button'
import { Badge } from '~/components/ui/badge'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { cn } from '~/lib/utils'
import type {
  FormCredentials,
  FormErrors,
  FormField,
  FormVariable,
  VariableFieldProps,
} from './types'
import { asArray, asRecord, createItemId, defaultsOfFields, hasErrorWithin } from './values'
import { FetchedOptionsInput } from './fetched_options'
import { CodeEditor } from './code_editor'
import { ExpressionInput } from './expression_input'
import { useExpressionScope, type ExpressionScope } from './expressions'

export interface PluginFormProps {
  fields: readonly FormField[]
  value: Record<string, unknown> | null | undefined
  onChange: (next: Record<string, unknown>) => void
  /** Error messages by field path ('timeout', 'webhook.url', 'messages.0.content'). */
  errors?: FormErrors
  readOnly?: boolean
  variables?: readonly FormVariable[]
  credentials?: readonly FormCredentials[]
  /** Extra notes under fields, by path (e.g. whether a saved secret is set). */
  notes?: Record<string, ReactNode>
  /** Prefix of the inputs' ids, to keep two forms on one page apart. */
  idPrefix?: string
  className?: string
  testId?: string
  /**
   * Draws every variable field (variable kind, response-mapping rows) in place of the
   * select of existing variables: the bot editor passes its picker, which can also create
   * a variable. This form is shared with the workflow editor, so it cannot import it.
   */
  VariableField?: ComponentType<VariableFieldProps>
}

interface Ctx {
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

function FieldList({
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

interface ControlProps {
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

function domId(prefix: string, path: string) {
  return `${prefix}-${path.replace(/[^\w-]/g, '_')}`
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

/**
 * A code field in the code editor: its language while it holds code, else (codeIf not
 * met) text whose {{variables}} the runner replaces, in the UI font.
 */
function CodeControl({
  field,
  value,
  onChange,
  ctx,
  id,
  labelId,
  asCode,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  return (
    <CodeEditor
      id={id}
      labelId={labelId}
      value={textOf(value)}
      onChange={(text) => onChange(text === '' ? undefined : text)}
      lang={asCode ? (field.lang ?? 'text') : 'text'}
      prose={!asCode}
      variables={ctx.variables}
      scope={ctx.scope}
      variableSyntax={asCode ? field.variables : 'braces'}
      placeholder={field.placeholder}
      readOnly={ctx.readOnly}
      describedBy={describedBy}
      invalid={invalid}
      required={field.required}
      testId={testId}
    />
  )
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : String(value)
}

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

function StringControl({
  field,
  value,
  onChange,
  ctx,
  id,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  const text = textOf(value)
  const common = {
    'id': id,
    'value': text,
    'placeholder': field.placeholder,
    'maxLength': field.maxLength,
    'readOnly': ctx.readOnly,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    'aria-required': field.required || undefined,
    'data-testid': testId,
  }
  const change = (next: string) => onChange(next === '' ? undefined : next)
  const insert =
    field.allowVariables && !ctx.readOnly && ctx.variables.length > 0 ? (
      <InsertVariable variables={ctx.variables} onInsert={(ref) => change(text + ref)} />
    ) : null

  if (field.optionsFrom?.pluginId && !field.secret && !field.multiline) {
    return (
      <FetchedOptionsInput
        field={field}
        value={text}
        onChange={change}
        root={asRecord(ctx.root)}
        readOnly={ctx.readOnly}
        id={id}
        describedBy={describedBy}
        invalid={invalid}
        testId={testId}
      />
    )
  }
  if (field.secret) return <SecretInput {...common} onChange={change} />
  // Every text option is substituted before a run: each one completes `{{`.
  if (field.multiline) {
    return (
      <div className="grid gap-1">
        <ExpressionInput {...common} multiline scope={ctx.scope} onChange={change} />
        {insert && <div className="flex justify-end">{insert}</div>}
      </div>
    )
  }
  return (
    <div className="flex items-center gap-2">
      <ExpressionInput {...common} scope={ctx.scope} onChange={change} />
      {insert}
    </div>
  )
}

/** Appends a {{Variable}} reference to a text that allows variables. */
function InsertVariable({
  variables,
  onInsert,
}: {
  variables: readonly FormVariable[]
  onInsert: (reference: string) => void
}) {
  const { t } = useTranslation()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={t('pluginForm.insertVariable')}>
          <BracesIcon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-64 overflow-y-auto">
        {variables.map((variable) => (
          <DropdownMenuItem key={variable.id} onSelect={() => onInsert(`{{${variable.name}}}`)}>
            {variable.name}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

function SecretInput({
  onChange,
  ...props
}: Omit<React.ComponentProps<'input'>, 'onChange'> & {
  'onChange': (next: string) => void
  'data-testid'?: string
}) {
  const { t } = useTranslation()
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative">
      <Input
        {...props}
        type={visible ? 'text' : 'password'}
        autoComplete="new-password"
        spellCheck={false}
        className="pr-10"
        onChange={(e) => onChange(e.target.value)}
      />
      <Button
        variant="ghost"
        size="icon-sm"
        className="absolute top-1/2 right-0.5 -translate-y-1/2"
        aria-label={visible ? t('pluginForm.hideSecret') : t('pluginForm.showSecret')}
        aria-pressed={visible}
        aria-controls={props.id}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOffIcon aria-hidden /> : <EyeIcon aria-hidden />}
      </Button>
    </div>
  )
}

function NumberControl({
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
  const common = {
    'id': id,
    'readOnly': ctx.readOnly,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    'aria-required': field.required || undefined,
    'data-testid': testId,
  }
  if (field.allowVariables) {
    return (
      <ExpressionInput
        {...common}
        scope={ctx.scope}
        type="text"
        inputMode="decimal"
        value={textOf(value)}
        placeholder={
          field.placeholder ?? t('pluginForm.numberOrVariable', { example: '{{Variable}}' })
        }
        onChange={(text) => {
          const number = Number(text)
          if (text.trim() === '') onChange(undefined)
          // A complete number is stored as one; anything else ('1.', '{{Age}}') as typed.
          else if (Number.isFinite(number) && String(number) === text.trim()) onChange(number)
          else onChange(text)
        }}
      />
    )
  }
  return (
    <Input
      {...common}
      type="number"
      min={field.min}
      max={field.max}
      step={field.step ?? 'any'}
      placeholder={field.placeholder}
      value={typeof value === 'number' || typeof value === 'string' ? value : ''}
      onChange={(e) => {
        const text = e.target.value
        const number = Number(text)
        onChange(text === '' ? undefined : Number.isFinite(number) ? number : text)
      }}
    />
  )
}

function EnumControl({
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
function SubjectControl({
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
function VariableControl({
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

function CredentialsControl({
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

function jsonText(value: unknown) {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    return ''
  }
}

/** JSON in the code editor: valid text is stored parsed, invalid text stays local (flagged). */
function JsonControl({
  field,
  value,
  onChange,
  ctx,
  id,
  labelId,
  describedBy,
  invalid,
  testId,
}: ControlProps) {
  const [state, setState] = useState({ text: jsonText(value), source: value })
  // The value changed from outside (a reset): show it.
  if (state.source !== value) setState({ text: jsonText(value), source: value })

  return (
    <CodeEditor
      id={id}
      labelId={labelId}
      value={state.text}
      lang="json"
      // Strings of the JSON are substituted before a run: `{{` completes there too.
      scope={ctx.scope}
      readOnly={ctx.readOnly}
      describedBy={describedBy}
      invalid={invalid}
      required={field.required}
      testId={testId}
      onChange={(text) => {
        if (text.trim() === '') {
          setState({ text, source: undefined })
          onChange(undefined)
          return
        }
        try {
          const parsed: unknown = JSON.parse(text)
          setState({ text, source: parsed })
          onChange(parsed)
        } catch {
          // The editor flags the error where it is; the stored value waits for valid JSON.
          setState((previous) => ({ ...previous, text }))
        }
      }}
    />
  )
}

// ---------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function ListControl({ field, path, value, onChange, ctx, id, testId }: ControlProps) {
  const { t } = useTranslation()
  const items = asArray(value)
  const itemFields = field.itemFields ?? []
  const itemLabel = field.itemLabel ?? t('pluginForm.item')
  const canRemove = !ctx.readOnly && items.length > (field.min ?? 0)
  const canAdd = !ctx.readOnly && (field.max === undefined || items.length < field.max)

  function replace(index: number, next: Record<string, unknown>) {
    onChange(items.map((item, i) => (i === index ? next : item)))
  }

  return (
    <div className="grid gap-3" data-testid={testId}>
      {items.map((item, index) => {
        const title = `${capitalize(itemLabel)} ${index + 1}`
        const titleId = `${id}-${index}-title`
        const itemRecord = asRecord(item)
        return (
          <div
            key={typeof itemRecord.id === 'string' ? itemRecord.id : index}
            role="group"
            aria-labelledby={titleId}
            className={cn(
              'grid gap-4 rounded-md border p-3',
              hasErrorWithin(ctx.errors, `${path}.${index}`) && 'border-destructive/60'
            )}
            data-testid="list-item"
          >
            <div className="flex items-center justify-between gap-2">
              <span id={titleId} className="text-xs font-semibold text-muted-foreground uppercase">
                {title}
              </span>
              {canRemove && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeItem', { label: title })}
                  onClick={() => onChange(items.filter((_, i) => i !== index))}
                  data-testid="list-item-remove"
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldList
              fields={itemFields}
              value={itemRecord}
              path={`${path}.${index}`}
              onChange={(next) => replace(index, next)}
              ctx={ctx}
            />
          </div>
        )
      })}
      {canAdd && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          data-testid="list-add"
          onClick={() =>
            onChange([...items, { id: createItemId(), ...defaultsOfFields(itemFields) }])
          }
        >
          <PlusIcon aria-hidden />
          {t('pluginForm.addItem', { label: itemLabel })}
        </Button>
      )}
    </div>
  )
}

function ObjectControl({ field, path, value, onChange, ctx, testId }: ControlProps) {
  return (
    <div className="grid gap-4 border-l-2 pl-4" data-testid={testId}>
      <FieldList
        fields={field.fields ?? []}
        value={asRecord(value)}
        path={path}
        onChange={onChange}
        ctx={ctx}
      />
    </div>
  )
}

/** A remove button and an add button around rows of inputs (key/value, mappings). */
function RowsFooter({
  canAdd,
  onAdd,
  addLabel,
  testId,
}: {
  canAdd: boolean
  onAdd: () => void
  addLabel: string
  testId: string
}) {
  if (!canAdd) return null
  return (
    <Button
      variant="outline"
      size="sm"
      className="justify-self-start"
      onClick={onAdd}
      data-testid={testId}
    >
      <PlusIcon aria-hidden />
      {addLabel}
    </Button>
  )
}

interface Row {
  id?: string
  [key: string]: unknown
}

function updateRow(rows: Row[], index: number, key: string, next: unknown) {
  return rows.map((row, i) => {
    if (i !== index) return row
    const copy = { ...row }
    if (next === undefined || next === '') delete copy[key]
    else copy[key] = next
    return copy
  })
}

function KeyValueControl({ field, path, value, onChange, ctx, testId }: ControlProps) {
  const { t } = useTranslation()
  const rows = asArray<Row>(value)
  const keyLabel = field.keyLabel ?? t('pluginForm.key')
  const valueLabel = field.valueLabel ?? t('pluginForm.value')
  return (
    <div className="grid gap-2" data-testid={testId}>
      {rows.length > 0 && (
        <div
          aria-hidden
          className="grid grid-cols-[1fr_1fr_2rem] gap-2 text-xs text-muted-foreground"
        >
          <span>{keyLabel}</span>
          <span>{valueLabel}</span>
        </div>
      )}
      {rows.map((row, index) => {
        const keyError = ctx.errors[`${path}.${index}.key`]
        const valueError = ctx.errors[`${path}.${index}.value`]
        return (
          <div key={row.id ?? index} className="grid gap-1" data-testid="key-value-row">
            <div className="grid grid-cols-[1fr_1fr_2rem] items-center gap-2">
              <ExpressionInput
                scope={ctx.scope}
                value={textOf(row.key)}
                readOnly={ctx.readOnly}
                aria-label={`${keyLabel} ${index + 1}`}
                aria-invalid={!!keyError || undefined}
                onChange={(text) => onChange(updateRow(rows, index, 'key', text))}
                data-testid="key-input"
              />
              <ExpressionInput
                scope={ctx.scope}
                value={textOf(row.value)}
                readOnly={ctx.readOnly}
                aria-label={`${valueLabel} ${index + 1}`}
                aria-invalid={!!valueError || undefined}
                onChange={(text) => onChange(updateRow(rows, index, 'value', text))}
                data-testid="value-input"
              />
              {!ctx.readOnly && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeRow', { index: index + 1 })}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldError>{keyError ?? valueError}</FieldError>
          </div>
        )
      })}
      <RowsFooter
        canAdd={!ctx.readOnly}
        onAdd={() => onChange([...rows, { id: createItemId() }])}
        addLabel={t('pluginForm.addRow')}
        testId="key-value-add"
      />
    </div>
  )
}

function ResponseMappingControl({ field, path, value, onChange, ctx, testId }: ControlProps) {
  const { t } = useTranslation()
  const rows = asArray<Row>(value)
  const sourceKey = field.key ?? 'bodyPath'
  const from = field.from ?? []
  return (
    <div className="grid gap-2" data-testid={testId}>
      {rows.length > 0 && (
        <div
          aria-hidden
          className="grid grid-cols-[1fr_1fr_2rem] gap-2 text-xs text-muted-foreground"
        >
          <span>{t('pluginForm.mappingSource')}</span>
          <span>{t('pluginForm.mappingVariable')}</span>
        </div>
      )}
      {rows.map((row, index) => {
        const sourceLabel = `${t('pluginForm.mappingSource')} ${index + 1}`
        const error =
          ctx.errors[`${path}.${index}.${sourceKey}`] ?? ctx.errors[`${path}.${index}.variableId`]
        const source = textOf(row[sourceKey])
        return (
          <div key={row.id ?? index} className="grid gap-1" data-testid="mapping-row">
            <div className="grid grid-cols-[1fr_1fr_2rem] items-center gap-2">
              {from.length > 0 ? (
                <Select
                  value={source}
                  onValueChange={(next) => onChange(updateRow(rows, index, sourceKey, next))}
                  disabled={ctx.readOnly}
                >
                  <SelectTrigger
                    className="w-full"
                    aria-label={sourceLabel}
                    data-testid="mapping-source"
                  >
                    <SelectValue placeholder={t('pluginForm.choose')} />
                  </SelectTrigger>
                  <SelectContent>
                    {source !== '' && !from.includes(source) && (
                      <SelectItem value={source}>{source}</SelectItem>
                    )}
                    {from.map((option) => (
                      <SelectItem key={option} value={option}>
                        {option}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              ) : (
                <Input
                  value={source}
                  readOnly={ctx.readOnly}
                  aria-label={sourceLabel}
                  placeholder={t('pluginForm.bodyPathPlaceholder')}
                  onChange={(e) => onChange(updateRow(rows, index, sourceKey, e.target.value))}
                  className="font-mono"
                  data-testid="mapping-source"
                />
              )}
              <VariableControl
                ctx={ctx}
                value={row.variableId}
                onChange={(next) => onChange(updateRow(rows, index, 'variableId', next))}
                disabled={ctx.readOnly}
                ariaLabel={`${t('pluginForm.mappingVariable')} ${index + 1}`}
                testId="mapping-variable"
              />
              {!ctx.readOnly && (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t('pluginForm.removeRow', { index: index + 1 })}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <Trash2Icon aria-hidden />
                </Button>
              )}
            </div>
            <FieldError>{error}</FieldError>
          </div>
        )
      })}
      <RowsFooter
        canAdd={!ctx.readOnly}
        onAdd={() => onChange([...rows, { id: createItemId() }])}
        addLabel={t('pluginForm.addMapping')}
        testId="mapping-add"
      />
    </div>
  )
}
