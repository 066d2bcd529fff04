import { useId, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { cn } from '~/lib/utils'
import {
  applySuggestion,
  OPEN_EXPRESSION,
  suggest,
  type ExpressionScope,
  type Suggestion,
} from './expressions'
// Its strings load with the panels, not with every page.
import '~/features/plugin_form/panel_strings'

type Field = HTMLInputElement | HTMLTextAreaElement

export interface ExpressionCompletion {
  /** Handlers and combobox attributes for the text field. */
  fieldProps: {
    'role': 'combobox'
    'aria-autocomplete': 'list'
    'aria-expanded': boolean
    'aria-controls': string
    'aria-activedescendant'?: string
    'onKeyDown': (event: KeyboardEvent<Field>) => void
    'onBlur': () => void
  }
  /** Call after each change of the text (typing). */
  read: (element: Field) => void
  list: React.ReactNode
}

/**
 * `{{` completion for a plain text field (expressions.ts): the list opens under the field
 * while a reference is being typed; arrows move, Enter or Tab chooses, Escape closes. A node
 * chosen keeps the list open on its fields. `replace` puts the new text in the field.
 */
export function useExpressionCompletion({
  scope,
  readOnly,
  element,
  replace,
  testId = 'expression-suggestions',
  optionTestId = 'expression-suggestion',
}: {
  scope: ExpressionScope
  readOnly?: boolean
  element: React.RefObject<Field | null>
  replace: (text: string, cursor: number) => void
  testId?: string
  optionTestId?: string
}): ExpressionCompletion {
  const { t } = useTranslation()
  const listId = `${useId().replace(/[^\w-]/g, '')}-expressions`
  const [query, setQuery] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const suggestions = query === null || readOnly ? [] : suggest(query, scope)
  const open = suggestions.length > 0
  const shown = Math.min(active, Math.max(0, suggestions.length - 1))

  function readAt(text: string, cursor: number, collapsed: boolean) {
    const match = collapsed ? OPEN_EXPRESSION.exec(text.slice(0, cursor)) : null
    setQuery(match ? match[1] : null)
    setActive(0)
  }

  function read(field: Field) {
    readAt(field.value, field.selectionStart ?? 0, field.selectionStart === field.selectionEnd)
  }

  function choose(suggestion: Suggestion) {
    const field = element.current
    if (!field) return
    let chosen = suggestion
    if (suggestion.create) {
      const made = scope.createVariable?.(suggestion.create)
      if (!made) return
      chosen = { ...suggestion, text: made.name }
    }
    const next = applySuggestion(field.value, field.selectionStart ?? 0, chosen)
    if (!next) return
    replace(next.text, next.cursor)
    readAt(next.text, next.cursor, true)
  }

  function onKeyDown(event: KeyboardEvent<Field>) {
    if (!open) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((shown + step + suggestions.length) % suggestions.length)
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault()
      choose(suggestions[shown])
    } else if (event.key === 'Escape') {
      // The panel closes on Escape otherwise: only the list goes.
      event.preventDefault()
      event.stopPropagation()
      setQuery(null)
    }
  }

  // Variables go without a word: they are what a bot editor lists alone.
  const kindLabel = (suggestion: Suggestion) =>
    suggestion.kind === 'field'
      ? suggestion.detail
      : suggestion.kind === 'variable'
        ? undefined
        : t(`pluginForm.expressions.kinds.${suggestion.kind}`)

  const list = open ? (
    <ul
      id={listId}
      role="listbox"
      data-testid={testId}
      aria-label={t('pluginForm.expressions.suggestions')}
      className="absolute top-full right-0 left-0 z-20 mt-1 max-h-56 overflow-y-auto rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md"
    >
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion.key}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === shown}
          data-testid={optionTestId}
          data-kind={suggestion.kind}
          className={cn(
            'flex cursor-pointer items-baseline gap-2 rounded-sm px-2 py-1',
            index === shown && 'bg-accent text-accent-foreground'
          )}
          // mousedown, not click: the field keeps its focus and cursor.
          onMouseDown={(event) => {
            event.preventDefault()
            choose(suggestion)
          }}
        >
          <span className="min-w-0 flex-1 truncate">
            {suggestion.create
              ? t('pluginForm.expressions.create', { name: suggestion.create })
              : suggestion.label}
          </span>
          {!suggestion.create && kindLabel(suggestion) && (
            <span className="shrink-0 text-xs text-muted-foreground">{kindLabel(suggestion)}</span>
          )}
        </li>
      ))}
    </ul>
  ) : null

  return {
    fieldProps: {
      'role': 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      'aria-controls': listId,
      'aria-activedescendant': open ? `${listId}-${shown}` : undefined,
      'onKeyDown': onKeyDown,
      'onBlur': () => setQuery(null),
    },
    read,
    list,
  }
}

type ExpressionInputProps = Omit<ComponentProps<'input'>, 'onChange' | 'value'> & {
  value: string
  onChange: (text: string) => void
  scope: ExpressionScope
  multiline?: boolean
  rows?: number
}

/**
 * A text field (one line, or several with `multiline`) whose `{{` opens the completion of
 * variables, run data and nodes.
 */
export function ExpressionInput({
  value,
  onChange,
  scope,
  multiline,
  rows = 3,
  className,
  onFocus,
  ...rest
}: ExpressionInputProps) {
  const element = useRef<Field>(null)
  const completion = useExpressionCompletion({
    scope,
    readOnly: rest.readOnly,
    element,
    replace: (text, cursor) => {
      onChange(text)
      requestAnimationFrame(() => {
        element.current?.focus()
        element.current?.setSelectionRange(cursor, cursor)
      })
    },
  })
  const common = {
    ...rest,
    ...completion.fieldProps,
    value,
    onFocus,
    onChange: (event: React.ChangeEvent<Field>) => {
      onChange(event.target.value)
      completion.read(event.target)
    },
  }
  return (
    <div className={cn('relative min-w-0 flex-1', className)}>
      {multiline ? (
        <Textarea
          {...(common as ComponentProps<'textarea'>)}
          ref={element as React.RefObject<HTMLTextAreaElement>}
          rows={rows}
        />
      ) : (
        <Input
          {...(common as ComponentProps<'input'>)}
          ref={element as React.RefObject<HTMLInputElement>}
          autoComplete="off"
        />
      )}
      {completion.list}
    </div>
  )
}
