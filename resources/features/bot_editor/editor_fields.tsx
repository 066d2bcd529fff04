import { useId, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CSS_LENGTH_PATTERN, isHttpUrl } from '#shared/bot/settings_bounds'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Switch } from '~/components/ui/switch'
import { Textarea } from '~/components/ui/textarea'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { cn } from '~/lib/utils'
import { useBotValue, useBotWriter, useReadOnly, type Path } from './bot_paths'

/**
 * Fields of the Theme and Settings tabs, each bound to one leaf of the theme or the
 * settings. Text and number fields keep what the builder typed while it is invalid (the
 * error shows under the field) and write only valid values, so nothing typed is lost and
 * nothing invalid is saved.
 */

type Root = 'theme' | 'settings'

interface BoundProps {
  root: Root
  path: Path
  label: string
  hint?: ReactNode
  testId?: string
  disabled?: boolean
}

export function testIdOf(root: Root, path: Path) {
  return `${root}-${path.join('-')}`
}

function FieldShell({
  id,
  label,
  error,
  hint,
  testId,
  children,
}: {
  id: string
  label: string
  error?: string
  hint?: ReactNode
  testId: string
  children: ReactNode
}) {
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <div data-testid={`${testId}-error`}>
          <FieldError id={`${id}-error`}>{error}</FieldError>
        </div>
      ) : (
        <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      )}
    </div>
  )
}

/**
 * The text shown in a field: the stored value, or the builder's draft while it differs.
 * A valid draft is written at once and dropped on blur (the stored value shows again).
 */
function useDraft(
  stored: string,
  check: (text: string) => string | undefined,
  commit: (text: string) => void
) {
  const [draft, setDraft] = useState<string | null>(null)
  return {
    text: draft ?? stored,
    error: draft === null ? undefined : check(draft),
    change(next: string) {
      setDraft(next)
      if (!check(next)) commit(next)
    },
    blur() {
      if (draft !== null && !check(draft)) setDraft(null)
    },
  }
}

function describedBy(id: string, error: string | undefined, hint: ReactNode) {
  if (error) return `${id}-error`
  return hint ? `${id}-hint` : undefined
}

export function TextField({
  root,
  path,
  label,
  hint,
  testId = testIdOf(root, path),
  disabled,
  placeholder,
  validate,
  multiline = false,
  monospace = false,
  type = 'text',
}: BoundProps & {
  placeholder?: string
  /** An error message for a text that must not be saved. */
  validate?: (text: string) => string | undefined
  multiline?: boolean
  monospace?: boolean
  type?: 'text' | 'url' | 'password'
}) {
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<string>(root, path)
  const write = useBotWriter(root)
  const check = (text: string) => (text.trim() === '' ? undefined : validate?.(text.trim()))
  const draft = useDraft(stored ?? '', check, (text) =>
    // An empty field removes the value, so the default applies again.
    write([[path, multiline ? text || undefined : text.trim() || undefined]])
  )
  const common = {
    'id': id,
    'value': draft.text,
    'placeholder': placeholder,
    'disabled': readOnly || disabled,
    'aria-invalid': draft.error ? true : undefined,
    'aria-describedby': describedBy(id, draft.error, hint),
    'data-testid': testId,
    'onBlur': draft.blur,
  }
  return (
    <FieldShell id={id} label={label} error={draft.error} hint={hint} testId={testId}>
      {multiline ? (
        <Textarea
          {...common}
          spellCheck={!monospace}
          className={cn('max-h-72 min-h-24', monospace && 'font-mono text-xs')}
          onChange={(event) => draft.change(event.target.value)}
        />
      ) : (
        <Input
          {...common}
          type={type}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => draft.change(event.target.value)}
        />
      )}
    </FieldShell>
  )
}

export function NumberField({
  root,
  path,
  label,
  hint,
  testId = testIdOf(root, path),
  disabled,
  min,
  max,
  step = 1,
  unit,
}: BoundProps & { min?: number; max?: number; step?: number; unit?: string }) {
  const { t } = useTranslation()
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<number>(root, path)
  const write = useBotWriter(root)
  const parse = (text: string) => Number(text.trim().replace(',', '.'))
  const check = (text: string) => {
    if (text.trim() === '') return undefined
    const value = parse(text)
    if (!Number.isFinite(value)) return t('editor.settings.number')
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      return max === undefined
        ? t('editor.settings.atLeast', { min })
        : t('editor.settings.between', { min: min ?? 0, max })
    }
    return undefined
  }
  const draft = useDraft(typeof stored === 'number' ? String(stored) : '', check, (text) =>
    write([[path, text.trim() === '' ? undefined : parse(text)]])
  )
  return (
    <FieldShell id={id} label={label} error={draft.error} hint={hint} testId={testId}>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          data-testid={testId}
          inputMode="decimal"
          autoComplete="off"
          value={draft.text}
          disabled={readOnly || disabled}
          aria-invalid={draft.error ? true : undefined}
          aria-describedby={describedBy(id, draft.error, hint)}
          onChange={(event) => draft.change(event.target.value)}
          onBlur={draft.blur}
          onKeyDown={(event) => {
            // Arrow keys step like a number input, within the bounds.
            if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return
            const current = parse(draft.text)
            if (!Number.isFinite(current)) return
            event.preventDefault()
            let next = current + (event.key === 'ArrowUp' ? step : -step)
            if (min !== undefined) next = Math.max(min, next)
            if (max !== undefined) next = Math.min(max, next)
            draft.change(String(Math.round(next * 1000) / 1000))
          }}
          className="w-32"
        />
        {unit && <span className="text-sm text-muted-foreground">{unit}</span>}
      </div>
    </FieldShell>
  )
}

const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** #abc and #aabbccdd as the #aabbcc the native colour input takes. */
function toPickerColor(color: string | undefined) {
  if (!color || !HEX_COLOR.test(color)) return '#000000'
  if (color.length === 4) {
    return `#${color
      .slice(1)
      .split('')
      .map((c) => c + c)
      .join('')}`.toLowerCase()
  }
  return color.slice(0, 7).toLowerCase()
}

export function ColorField({
  root,
  path,
  label,
  hint,
  testId = testIdOf(root, path),
  disabled,
}: BoundProps) {
  const { t } = useTranslation()
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<string>(root, path)
  const write = useBotWriter(root)
  const check = (text: string) =>
    text.trim() === '' || HEX_COLOR.test(text.trim()) ? undefined : t('theme.errors.hexColor')
  const draft = useDraft(stored ?? '', check, (text) => write([[path, text.trim() || undefined]]))
  const isDisabled = readOnly || disabled
  return (
    <FieldShell id={id} label={label} error={draft.error} hint={hint} testId={testId}>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={t('theme.pickColor', { field: label })}
          data-testid={`${testId}-picker`}
          value={toPickerColor(draft.error ? stored : draft.text)}
          disabled={isDisabled}
          onChange={(event) => draft.change(event.target.value)}
          onBlur={draft.blur}
          className="h-9 w-11 shrink-0 cursor-pointer rounded-md border border-input bg-transparent p-1 disabled:cursor-not-allowed disabled:opacity-50"
        />
        <Input
          id={id}
          data-testid={testId}
          value={draft.text}
          placeholder="#000000"
          maxLength={9}
          autoComplete="off"
          spellCheck={false}
          disabled={isDisabled}
          aria-invalid={draft.error ? true : undefined}
          aria-describedby={describedBy(id, draft.error, hint)}
          onChange={(event) => draft.change(event.target.value)}
          onBlur={draft.blur}
          className="w-28 font-mono"
        />
      </div>
    </FieldShell>
  )
}

/** A switch row; `onChange` replaces the plain write when one switch sets several leaves. */
export function SwitchField({
  root,
  path,
  label,
  hint,
  testId = testIdOf(root, path),
  disabled,
  checked: forced,
  onChange,
}: BoundProps & { checked?: boolean; onChange?: (checked: boolean) => void }) {
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<boolean>(root, path)
  const write = useBotWriter(root)
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      </div>
      <Switch
        id={id}
        data-testid={testId}
        checked={forced ?? !!stored}
        disabled={readOnly || disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onCheckedChange={(checked) => (onChange ? onChange(checked) : write([[path, checked]]))}
      />
    </div>
  )
}

export interface Choice {
  value: string
  label: string
}

export function SelectField({
  root,
  path,
  label,
  hint,
  testId = testIdOf(root, path),
  disabled,
  options,
  placeholder,
  onChange,
}: BoundProps & {
  options: readonly Choice[]
  /** Shown while nothing is stored and no default applies. */
  placeholder?: string
  onChange?: (value: string) => void
}) {
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<string>(root, path)
  const write = useBotWriter(root)
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={stored ?? ''}
        disabled={readOnly || disabled}
        onValueChange={(value) => (onChange ? onChange(value) : write([[path, value]]))}
      >
        <SelectTrigger id={id} data-testid={testId} className="w-full">
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FieldHint>{hint}</FieldHint>
    </div>
  )
}

/** A titled card grouping the fields of one part of the theme or the settings. */
export function FieldGroup({
  title,
  description,
  children,
  testId,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  testId?: string
}) {
  return (
    <section className="grid gap-4 rounded-xl border bg-card p-5" data-testid={testId}>
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">{title}</h3>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  )
}

/** Validators shared by the tabs: they return an error message or nothing. */
export function useValidators() {
  const { t } = useTranslation()
  return {
    url(text: string) {
      return isHttpUrl(text) ? undefined : t('botSettings.errors.url')
    },
    cssLength(text: string) {
      return CSS_LENGTH_PATTERN.test(text) ? undefined : t('theme.errors.cssLength')
    },
  }
}
