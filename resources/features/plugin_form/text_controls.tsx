import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BracesIcon, EyeIcon, EyeOffIcon } from 'lucide-react'
import { Input } from '~/components/ui/input'
import { Button } from '~/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import type { FormVariable } from './types'
import { asRecord } from './values'
import { FetchedOptionsInput } from './fetched_options'
import { CodeEditor } from './code_editor'
import { ExpressionInput } from './expression_input'
import { textOf, type ControlProps } from './form_context'

/**
 * The controls of the generated form that take typed text: strings (with variables and
 * expressions), secrets, numbers, code and JSON.
 */

/**
 * A code field in the code editor: its language while it holds code, else (codeIf not
 * met) text whose {{variables}} the runner replaces, in the UI font.
 */
export function CodeControl({
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

export function StringControl({
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

export function NumberControl({
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
export function JsonControl({
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
