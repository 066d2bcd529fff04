import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LOG_LEVELS } from '#shared/workflow/validate'
import { defaultWorkflowSettings, type WorkflowSettings } from '#shared/workflow/types'
import { Input } from '~/components/ui/input'
import { Switch } from '~/components/ui/switch'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '~/components/ui/sheet'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { updateSettings } from './workflow_editing'

type ErrorHandling = NonNullable<WorkflowSettings['errorHandling']>
type Logging = NonNullable<WorkflowSettings['logging']>

/**
 * The lower bounds the server enforces (app/shared/workflow/validate.ts): checked here as
 * the builder types, so the error shows beside the field and a bad value is never saved.
 */
export const SETTING_BOUNDS = {
  retryCount: { min: 0, integer: true },
  retryDelay: { min: 0, integer: false },
  timeout: { min: 1, integer: false },
  concurrency: { min: 1, integer: true },
  retentionDays: { min: 1, integer: true },
} as const

type BoundedSetting = keyof typeof SETTING_BOUNDS

export type NumberProblem = 'required' | 'number' | 'integer' | 'min'

export function numberProblem(text: string, setting: BoundedSetting): NumberProblem | undefined {
  const bound = SETTING_BOUNDS[setting]
  if (text.trim() === '') return 'required'
  const value = Number(text)
  if (!Number.isFinite(value)) return 'number'
  if (bound.integer && !Number.isInteger(value)) return 'integer'
  if (value < bound.min) return 'min'
  return undefined
}

/** Workflow settings: retries, error handling, timeout, concurrency and logging. */
export function WorkflowSettingsSheet({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const settings = useWorkflowEditor((state) => state.history.present.settings)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const defaults = defaultWorkflowSettings()
  const errorHandling: ErrorHandling = { ...defaults.errorHandling, ...settings.errorHandling }
  const logging: Logging = { ...defaults.logging, ...settings.logging }

  const edit = (key: string, fn: (current: WorkflowSettings) => WorkflowSettings) =>
    api.getState().edit((doc) => updateSettings(doc, fn), { coalesceKey: `settings:${key}` })
  const setErrorHandling = (patch: Partial<ErrorHandling>) =>
    edit(Object.keys(patch)[0], (current) => ({
      ...current,
      errorHandling: { ...defaults.errorHandling, ...current.errorHandling, ...patch },
    }))
  const setLogging = (patch: Partial<Logging>) =>
    edit(Object.keys(patch)[0], (current) => ({
      ...current,
      logging: { ...defaults.logging, ...current.logging, ...patch },
    }))

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent data-testid="workflow-settings" className="overflow-y-auto">
        <SheetHeader>
          <SheetTitle>{t('workflowEditor.workflowSettings.title')}</SheetTitle>
          <SheetDescription>{t('workflowEditor.workflowSettings.description')}</SheetDescription>
        </SheetHeader>
        <div className="grid gap-8 px-4 pb-6">
          <section className="grid gap-4">
            <h3 className="text-sm font-semibold">
              {t('workflowEditor.workflowSettings.errorHandling')}
            </h3>
            <NumberSetting
              setting="retryCount"
              value={errorHandling.retryCount}
              readOnly={readOnly}
              onCommit={(retryCount) => setErrorHandling({ retryCount })}
            />
            <NumberSetting
              setting="retryDelay"
              value={errorHandling.retryDelay}
              readOnly={readOnly}
              onCommit={(retryDelay) => setErrorHandling({ retryDelay })}
            />
            <SwitchSetting
              name="continueOnFail"
              checked={!!errorHandling.continueOnFail}
              readOnly={readOnly}
              onChange={(continueOnFail) => setErrorHandling({ continueOnFail })}
            />
            <SwitchSetting
              name="failureNotification"
              checked={!!errorHandling.failureNotification}
              readOnly={readOnly}
              onChange={(failureNotification) => setErrorHandling({ failureNotification })}
            />
          </section>
          <section className="grid gap-4">
            <h3 className="text-sm font-semibold">
              {t('workflowEditor.workflowSettings.execution')}
            </h3>
            <NumberSetting
              setting="timeout"
              value={settings.timeout ?? defaults.timeout}
              readOnly={readOnly}
              onCommit={(timeout) => edit('timeout', (current) => ({ ...current, timeout }))}
            />
            <NumberSetting
              setting="concurrency"
              value={settings.concurrency ?? defaults.concurrency}
              readOnly={readOnly}
              onCommit={(concurrency) =>
                edit('concurrency', (current) => ({ ...current, concurrency }))
              }
            />
          </section>
          <section className="grid gap-4">
            <h3 className="text-sm font-semibold">
              {t('workflowEditor.workflowSettings.logging')}
            </h3>
            <LevelSetting
              value={logging.level ?? 'info'}
              readOnly={readOnly}
              onChange={(level) => setLogging({ level })}
            />
            <NumberSetting
              setting="retentionDays"
              value={logging.retentionDays}
              readOnly={readOnly}
              onCommit={(retentionDays) => setLogging({ retentionDays })}
            />
          </section>
        </div>
      </SheetContent>
    </Sheet>
  )
}

function NumberSetting({
  setting,
  value,
  readOnly,
  onCommit,
}: {
  setting: BoundedSetting
  value: number | undefined
  readOnly: boolean
  onCommit: (value: number) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const shown = value === undefined ? '' : String(value)
  // Typed text that is not (yet) valid stays local; an outside change (undo) replaces it.
  const [state, setState] = useState({ text: shown, source: value })
  if (state.source !== value) setState({ text: shown, source: value })
  const problem = numberProblem(state.text, setting)
  const errorId = `${id}-error`
  const hintId = `${id}-hint`

  return (
    <div className="grid gap-2" data-field={setting}>
      <Label htmlFor={id}>{t(`workflowEditor.workflowSettings.${setting}`)}</Label>
      <Input
        id={id}
        type="number"
        inputMode={SETTING_BOUNDS[setting].integer ? 'numeric' : 'decimal'}
        min={SETTING_BOUNDS[setting].min}
        step={SETTING_BOUNDS[setting].integer ? 1 : 'any'}
        data-testid={`setting-${setting}`}
        value={state.text}
        readOnly={readOnly}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => {
          const text = event.target.value
          setState({ text, source: value })
          if (!numberProblem(text, setting)) {
            const next = Number(text)
            // The store answers with the same number: keep the builder's own text.
            setState({ text, source: next })
            if (next !== value) onCommit(next)
          }
        }}
      />
      <FieldHint id={hintId}>{t(`workflowEditor.workflowSettings.${setting}Hint`)}</FieldHint>
      {problem && (
        <FieldError id={errorId}>
          <span data-testid={`setting-${setting}-error`}>
            {t(`workflowEditor.workflowSettings.errors.${problem}`, {
              min: SETTING_BOUNDS[setting].min,
            })}
          </span>
        </FieldError>
      )}
    </div>
  )
}

function SwitchSetting({
  name,
  checked,
  readOnly,
  onChange,
}: {
  name: 'continueOnFail' | 'failureNotification'
  checked: boolean
  readOnly: boolean
  onChange: (checked: boolean) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center gap-3">
        <Switch
          id={id}
          data-testid={`setting-${name}`}
          checked={checked}
          disabled={readOnly}
          onCheckedChange={onChange}
          aria-describedby={`${id}-hint`}
        />
        <Label htmlFor={id}>{t(`workflowEditor.workflowSettings.${name}`)}</Label>
      </div>
      <FieldHint id={`${id}-hint`}>{t(`workflowEditor.workflowSettings.${name}Hint`)}</FieldHint>
    </div>
  )
}

function LevelSetting({
  value,
  readOnly,
  onChange,
}: {
  value: Logging['level']
  readOnly: boolean
  onChange: (level: NonNullable<Logging['level']>) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('workflowEditor.workflowSettings.level')}</Label>
      <Select
        value={value}
        disabled={readOnly}
        onValueChange={(next) => onChange(next as NonNullable<Logging['level']>)}
      >
        <SelectTrigger id={id} className="w-full" data-testid="setting-level">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {LOG_LEVELS.map((level) => (
            <SelectItem key={level} value={level}>
              {t(`workflowEditor.workflowSettings.levels.${level}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}
