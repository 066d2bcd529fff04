import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Loader2, SendHorizontal } from '../icons'
import type { ChatInput } from '#shared/chat/types'
import { cn } from '~/lib/utils'
import type { ChatAnswer } from '../use_chat_flow'
import type { UploadProgress } from '../chat_client'

export interface ChatInputProps {
  input: ChatInput
  /** True while the answer travels: the input stays visible but cannot be used. */
  disabled: boolean
  onSubmit: (answer: ChatAnswer) => void
  /** Uploads one file for this input's block; resolves with its URL. */
  upload: (
    file: File,
    onProgress?: (progress: UploadProgress) => void,
    signal?: AbortSignal
  ) => Promise<string>
}

/** Reads a dotted path of the block's options ("labels.button"). */
function read(options: Record<string, unknown>, path: string): unknown {
  let value: unknown = options
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/** A non-empty text option; blank labels fall back to ours. */
export function optionText(options: Record<string, unknown>, path: string): string | undefined {
  const value = read(options, path)
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' && value.trim() ? value : undefined
}

/** Numbers may arrive as text once a {{variable}} is substituted. */
export function optionNumber(options: Record<string, unknown>, path: string): number | undefined {
  const value = read(options, path)
  const number = typeof value === 'string' && value.trim() ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined
}

export function optionFlag(options: Record<string, unknown>, path: string): boolean | undefined {
  const value = read(options, path)
  if (typeof value === 'boolean') return value
  if (value === 'true') return true
  if (value === 'false') return false
  return undefined
}

/**
 * Focus on appear, so a keyboard user types straight away; text fields skip it on touch
 * screens, where focusing pops the keyboard over the question.
 */
export function useAutoFocus<T extends HTMLElement>(isTextField = false) {
  const ref = useRef<T>(null)
  useEffect(() => {
    if (isTextField && window.matchMedia?.('(pointer: coarse)').matches) return
    ref.current?.focus({ preventScroll: true })
  }, [isTextField])
  return ref
}

export function SendButton({
  label,
  disabled,
  sending,
  type = 'submit',
  onClick,
  className,
  ref,
}: {
  ref?: React.Ref<HTMLButtonElement>
  label?: string
  disabled?: boolean
  sending?: boolean
  type?: 'submit' | 'button'
  onClick?: () => void
  className?: string
}) {
  const { t } = useTranslation()
  const text = label ?? t('viewer.input.send')
  return (
    <button
      ref={ref}
      type={type}
      onClick={onClick}
      disabled={disabled || sending}
      aria-busy={sending || undefined}
      className={cn(
        'fc-button inline-flex h-10 shrink-0 items-center justify-center gap-2 px-4 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60',
        className
      )}
    >
      {sending ? (
        <Loader2 className="size-4 animate-spin" aria-hidden />
      ) : (
        !text && <SendHorizontal className="size-4" aria-hidden />
      )}
      <span className={cn(!text && 'sr-only')}>{text || t('viewer.input.send')}</span>
    </button>
  )
}

/** The right-aligned slot every input sits in, under the last bubble. */
export function InputRow({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className={cn('ms-auto flex w-full flex-col items-end gap-2', !wide && 'sm:max-w-md')}>
      {children}
    </div>
  )
}

export function InputError({ children }: { children?: ReactNode }) {
  if (!children) return null
  return (
    <p role="alert" className="text-end text-sm text-red-600">
      {children}
    </p>
  )
}

/** A search box over long lists of choices. */
export function FilterBox({
  value,
  onChange,
  placeholder,
  inputRef,
  disabled,
}: {
  value: string
  onChange: (value: string) => void
  placeholder: string
  inputRef?: React.Ref<HTMLInputElement>
  disabled?: boolean
}) {
  return (
    <div className="fc-input flex w-full items-center">
      <input
        ref={inputRef}
        type="search"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        className="fc-input-field h-10 w-full min-w-0 bg-transparent px-3 text-[15px] outline-none"
      />
    </div>
  )
}

/** Case- and accent-insensitive, so "cafe" finds "Café". */
export function normalizeSearch(text: string) {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim()
}

/** The chosen items' texts in the order the builder gave them. */
export function joinSelected(texts: string[], selected: ReadonlySet<string>, ids: string[]) {
  return ids
    .map((id, index) => (selected.has(id) ? texts[index] : undefined))
    .filter((text): text is string => Boolean(text))
    .join(', ')
}

/**
 * The selection of a choice-like input (buttons, pictures): with `multiple` off a click
 * answers at once with the entry's value (none when `valueOf` gives undefined); with it on,
 * clicks toggle entries and `submitSelection` answers with the chosen values in the
 * builder's order. `choose` is stable, so that typing in a filter re-renders no button.
 */
export function useChoiceSelection<T extends { id: string }>({
  entries,
  valueOf,
  multiple,
  disabled,
  onSubmit,
  initial,
}: {
  entries: readonly T[]
  valueOf: (entry: T) => string | undefined
  multiple: boolean
  disabled: boolean | undefined
  onSubmit: (answer: ChatAnswer) => void
  initial?: () => ReadonlySet<string>
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(initial ?? (() => new Set()))
  const choose = useCallback(
    (id: string) => {
      if (disabled) return
      if (!multiple) {
        const entry = entries.find((candidate) => candidate.id === id)
        const value = entry ? valueOf(entry) : undefined
        if (value !== undefined) onSubmit({ text: value })
        return
      }
      setSelected((previous) => {
        const next = new Set(previous)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      })
    },
    // valueOf is read at click time; callers pass a function of the entry only.
    [disabled, multiple, entries, onSubmit]
  )
  const submitSelection = () => {
    const text = joinSelected(
      entries.map((entry) => valueOf(entry) ?? ''),
      selected,
      entries.map((entry) => entry.id)
    )
    if (text) onSubmit({ text })
  }
  return { selected, choose, submitSelection }
}
