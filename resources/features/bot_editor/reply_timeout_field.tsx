import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { setBlockTimeout } from '#shared/bot/editing'
import { TIMEOUT_MAX_SECONDS, type Block } from '#shared/bot/types'
import { FieldHint, Label } from '~/components/ui/label'
import { Input } from '~/components/ui/input'
import { Switch } from '~/components/ui/switch'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { useBotEditorApi } from './bot_editor_store'

type Unit = 'seconds' | 'minutes'

const DEFAULT_SECONDS = 60

/** Shown in whole minutes when it is a whole number of them. */
function unitOf(seconds: number): Unit {
  return seconds >= 60 && seconds % 60 === 0 ? 'minutes' : 'seconds'
}

/**
 * Every input block's reply timeout (docs/bots.md, "Reply timeout"): on, it gives the
 * block a "No reply" exit taken when the visitor does not answer within the time set.
 */
export function ReplyTimeoutField({ block, readOnly }: { block: Block; readOnly: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const seconds = block.timeout?.seconds
  const [unit, setUnit] = useState<Unit>(() => unitOf(seconds ?? DEFAULT_SECONDS))
  const factor = unit === 'minutes' ? 60 : 1
  const [draft, setDraft] = useState<string | null>(null)
  const shown = draft ?? (seconds === undefined ? '' : String(seconds / factor))

  const save = (next: number | null) =>
    api.getState().edit((bot) => setBlockTimeout(bot, block.id, next), {
      coalesceKey: `timeout:${block.id}`,
    })

  return (
    <div className="grid gap-2 border-t pt-4" data-testid="reply-timeout">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={`${id}-on`}>{t('editor.replyTimeout.label')}</Label>
        <Switch
          id={`${id}-on`}
          data-testid="reply-timeout-switch"
          checked={seconds !== undefined}
          disabled={readOnly}
          onCheckedChange={(on) => {
            setDraft(null)
            setUnit(unitOf(DEFAULT_SECONDS))
            save(on ? DEFAULT_SECONDS : null)
          }}
        />
      </div>
      {seconds !== undefined && (
        <div className="flex gap-2">
          <Input
            id={`${id}-amount`}
            type="number"
            min={1}
            max={TIMEOUT_MAX_SECONDS / factor}
            inputMode="numeric"
            aria-label={t('editor.replyTimeout.amount')}
            data-testid="reply-timeout-amount"
            className="w-28"
            value={shown}
            disabled={readOnly}
            onChange={(event) => {
              setDraft(event.target.value)
              const amount = Number(event.target.value)
              if (event.target.value !== '' && Number.isFinite(amount) && amount > 0)
                save(amount * factor)
            }}
            onBlur={() => setDraft(null)}
          />
          <Select
            value={unit}
            disabled={readOnly}
            onValueChange={(next) => {
              const nextUnit = next as Unit
              setUnit(nextUnit)
              setDraft(null)
              // The number stays as typed: "2" seconds become "2" minutes.
              save((seconds / factor) * (nextUnit === 'minutes' ? 60 : 1))
            }}
          >
            <SelectTrigger
              className="w-32"
              aria-label={t('editor.replyTimeout.unit')}
              data-testid="reply-timeout-unit"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="seconds">{t('editor.replyTimeout.seconds')}</SelectItem>
              <SelectItem value="minutes">{t('editor.replyTimeout.minutes')}</SelectItem>
            </SelectContent>
          </Select>
        </div>
      )}
      <FieldHint>{t('editor.replyTimeout.hint')}</FieldHint>
    </div>
  )
}
