import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { useBotValue, useBotWriter, useReadOnly } from './bot_paths'

const PATH = ['security', 'allowedOrigins'] as const

/** An http(s) origin: scheme, host and optional port, nothing after. */
export function isOrigin(text: string) {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text
  } catch {
    return false
  }
}

function sameList(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((value, index) => value === b[index])
}

/**
 * settings.security.allowedOrigins: the sites allowed to start the chat. The rows are
 * kept as typed; the list is saved only while every filled row is a valid origin, so a
 * half-typed origin never reaches the bot and is not lost either.
 */
export function AllowedOriginsField() {
  const { t } = useTranslation()
  const id = useId()
  const readOnly = useReadOnly()
  const stored = useBotValue<string[]>('settings', PATH) ?? []
  const write = useBotWriter('settings')
  const [rows, setRows] = useState<string[]>(stored)

  const filled = rows.map((row) => row.trim()).filter(Boolean)
  const storedKey = stored.join('\n')
  // Undo and redo change the stored list: follow it unless it is what the rows say.
  useEffect(() => {
    if (!sameList(filled, stored)) setRows(stored)
  }, [storedKey])

  function change(next: string[]) {
    setRows(next)
    const values = next.map((row) => row.trim()).filter(Boolean)
    if (values.every(isOrigin) && !sameList(values, stored)) write([[PATH, values]])
  }

  return (
    <div className="grid gap-2" data-testid="settings-allowed-origins">
      <Label htmlFor={`${id}-0`}>{t('botSettings.security.allowedOrigins')}</Label>
      <FieldHint>{t('botSettings.security.allowedOriginsHint')}</FieldHint>
      {rows.length === 0 && (
        <p className="text-sm text-muted-foreground" data-testid="allowed-origins-empty">
          {t('botSettings.security.anyOrigin')}
        </p>
      )}
      {rows.map((row, index) => {
        const invalid = row.trim() !== '' && !isOrigin(row.trim())
        const rowId = `${id}-${index}`
        return (
          <div key={index} className="grid gap-1">
            <div className="flex gap-2">
              <Input
                id={rowId}
                data-testid="allowed-origin-input"
                value={row}
                placeholder="https://www.example.com"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                disabled={readOnly}
                aria-label={t('botSettings.security.origin', { index: index + 1 })}
                aria-invalid={invalid ? true : undefined}
                aria-describedby={invalid ? `${rowId}-error` : undefined}
                onChange={(event) =>
                  change(rows.map((r, i) => (i === index ? event.target.value : r)))
                }
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                data-testid="allowed-origin-remove"
                aria-label={t('botSettings.security.removeOrigin')}
                disabled={readOnly}
                onClick={() => change(rows.filter((_, i) => i !== index))}
              >
                <Trash2Icon />
              </Button>
            </div>
            {invalid && (
              <div data-testid="allowed-origin-error">
                <FieldError id={`${rowId}-error`}>{t('botSettings.errors.origin')}</FieldError>
              </div>
            )}
          </div>
        )
      })}
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-self-start"
        data-testid="allowed-origin-add"
        disabled={readOnly}
        onClick={() => setRows([...rows, ''])}
      >
        <PlusIcon /> {t('botSettings.security.addOrigin')}
      </Button>
    </div>
  )
}
