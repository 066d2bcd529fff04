import { useTranslation } from 'react-i18next'
import type { CustomFormProps } from '#sdk/forms'

/**
 * The AB test's own form: one slider sets both paths, so the split always adds up to 100.
 * (The generated form would show a bare number input.)
 */
export default function AbTestForm({
  value,
  onChange,
  errors,
  readOnly,
  idPrefix = 'ab',
}: CustomFormProps) {
  const { t } = useTranslation()
  const raw = Number(value?.aPercent ?? 50)
  const aPercent = Number.isFinite(raw) ? Math.min(100, Math.max(0, Math.round(raw))) : 50
  const set = (next: number) =>
    onChange({ ...value, aPercent: Math.min(100, Math.max(0, Math.round(next))) })
  return (
    <div className="grid gap-3">
      <label htmlFor={`${idPrefix}-aPercent`} className="text-sm font-medium">
        {t('pluginForms.abTest.split')}
      </label>
      <input
        id={`${idPrefix}-aPercent`}
        type="range"
        min={0}
        max={100}
        step={1}
        value={aPercent}
        disabled={readOnly}
        onChange={(event) => set(Number(event.target.value))}
        className="w-full accent-primary"
        data-testid="field-aPercent"
        aria-valuetext={t('pluginForms.abTest.summary', { a: aPercent, b: 100 - aPercent })}
      />
      <p className="text-sm text-muted-foreground" data-testid="ab-split">
        {t('pluginForms.abTest.summary', { a: aPercent, b: 100 - aPercent })}
      </p>
      {errors?.aPercent && <p className="text-sm text-destructive">{errors.aPercent}</p>}
    </div>
  )
}
