import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronDownIcon, Loader2Icon, RefreshCwIcon } from 'lucide-react'
import { Input } from '~/components/ui/input'
import { Button } from '~/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { HttpError, jsonFetch } from '~/lib/http'
import type { FormField } from './types'

/**
 * A text field whose options a plugin fetches live (`optionsFrom: { fetcher }`, e.g. a
 * provider's models): POST /api/plugins/{pluginId}/fetchers/{fetcher} with the block's
 * options. Any text may still be typed (a model the list does not show, a {{variable}});
 * the fetched options fill a dropdown and the input's suggestions.
 */

export interface FetchedItem {
  value: string
  label: string
}

type FetchState =
  | { status: 'idle' }
  | { status: 'waiting' }
  | { status: 'loading' }
  | { status: 'done'; items: FetchedItem[] }
  | { status: 'failed'; message: string }

/*
 * One answer per plugin, fetcher and dependency values for the page's lifetime: opening
 * another block of the same provider does not ask the provider again. "Load again" skips it.
 */
const cache = new Map<string, Promise<FetchedItem[]>>()

function fetchItems(
  pluginId: string,
  fetcher: string,
  options: Record<string, unknown>,
  key: string,
  fresh: boolean
) {
  if (fresh || !cache.has(key)) {
    const request = jsonFetch<{ items: FetchedItem[] }>(
      `/api/plugins/${encodeURIComponent(pluginId)}/fetchers/${encodeURIComponent(fetcher)}`,
      { method: 'POST', body: { options } }
    ).then((body) => (Array.isArray(body?.items) ? body.items : []))
    // A failure is not remembered: the next look tries again.
    request.catch(() => cache.delete(key))
    cache.set(key, request)
  }
  return cache.get(key)!
}

export interface FetchedOptionsInputProps {
  field: FormField
  value: string
  onChange: (next: string) => void
  /** The whole options of the block: sent to the fetcher, dependsOn read from them. */
  root: Record<string, unknown>
  readOnly: boolean
  id: string
  describedBy?: string
  invalid: boolean
  testId: string
}

export function FetchedOptionsInput({
  field,
  value,
  onChange,
  root,
  readOnly,
  id,
  describedBy,
  invalid,
  testId,
}: FetchedOptionsInputProps) {
  const { t } = useTranslation()
  const listId = `${useId().replace(/[^\w-]/g, '')}-options`
  const source = field.optionsFrom!
  const dependsOn = source.dependsOn ?? []
  const dependencies = dependsOn.map((name) => root[name])
  const ready = dependencies.every((v) => v !== undefined && v !== null && v !== '')
  const key = JSON.stringify([source.pluginId, source.fetcher, dependencies])
  const [state, setState] = useState<FetchState>({ status: 'idle' })
  // The latest options, read when a fetch starts (not a reason to fetch again).
  const rootRef = useRef(root)
  rootRef.current = root

  const load = useCallback(
    (fresh: boolean) => {
      if (!source.pluginId) return () => {}
      if (!ready) {
        setState({ status: 'waiting' })
        return () => {}
      }
      let current = true
      setState({ status: 'loading' })
      fetchItems(source.pluginId, source.fetcher, rootRef.current, key, fresh).then(
        (items) => current && setState({ status: 'done', items }),
        (error) =>
          current &&
          setState({
            status: 'failed',
            message:
              error instanceof HttpError
                ? [error.message, error.description].filter(Boolean).join(' - ')
                : t('common.somethingWentWrong'),
          })
      )
      return () => {
        current = false
      }
    },
    [key, ready, source.pluginId, source.fetcher, t]
  )

  useEffect(() => load(false), [load])

  const items = state.status === 'done' ? state.items : []
  const statusId = `${id}-fetch-status`
  const described = [describedBy, statusId].filter(Boolean).join(' ')

  return (
    <div
      className="grid gap-1.5"
      data-testid={`${testId}-fetched`}
      data-fetch-status={state.status}
    >
      <div className="flex items-center gap-2">
        <Input
          id={id}
          value={value}
          list={items.length > 0 ? listId : undefined}
          placeholder={field.placeholder ?? t('pluginForm.fetched.placeholder')}
          readOnly={readOnly}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={described}
          aria-invalid={invalid || undefined}
          aria-required={field.required || undefined}
          data-testid={testId}
        />
        {items.length > 0 && (
          <datalist id={listId}>
            {items.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label !== item.value ? item.label : undefined}
              </option>
            ))}
          </datalist>
        )}
        <DropdownMenu>
          <DropdownMenuTrigger asChild disabled={readOnly || !ready}>
            <Button
              variant="outline"
              size="icon"
              aria-label={t('pluginForm.fetched.open')}
              data-testid={`${testId}-options`}
            >
              {state.status === 'loading' ? (
                <Loader2Icon className="animate-spin" aria-hidden />
              ) : (
                <ChevronDownIcon aria-hidden />
              )}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="max-h-72 w-72 overflow-y-auto">
            {items.map((item) => (
              <DropdownMenuItem
                key={item.value}
                onSelect={() => onChange(item.value)}
                data-testid="fetched-option"
                data-value={item.value}
              >
                <span className="truncate">{item.label}</span>
                {item.label !== item.value && (
                  <span className="ml-auto truncate font-mono text-xs text-muted-foreground">
                    {item.value}
                  </span>
                )}
              </DropdownMenuItem>
            ))}
            {state.status === 'done' && items.length === 0 && (
              <DropdownMenuItem disabled>{t('pluginForm.fetched.empty')}</DropdownMenuItem>
            )}
            {state.status === 'loading' && (
              <DropdownMenuItem disabled>{t('pluginForm.fetched.loading')}</DropdownMenuItem>
            )}
            {items.length > 0 && <DropdownMenuSeparator />}
            <DropdownMenuItem onSelect={() => load(true)} data-testid="fetched-reload">
              <RefreshCwIcon aria-hidden />
              {t('pluginForm.fetched.reload')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <p
        id={statusId}
        role={state.status === 'failed' ? 'alert' : 'status'}
        className={
          state.status === 'failed' ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'
        }
        data-testid={`${testId}-fetch-message`}
      >
        {state.status === 'loading' && t('pluginForm.fetched.loading')}
        {state.status === 'waiting' && t('pluginForm.fetched.waiting')}
        {state.status === 'failed' && t('pluginForm.fetched.failed', { message: state.message })}
        {state.status === 'done' && items.length === 0 && t('pluginForm.fetched.empty')}
      </p>
    </div>
  )
}
