import { useState } from 'react'
import { router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  CheckIcon,
  CopyIcon,
  DownloadIcon,
  RefreshCwIcon,
  ShieldCheckIcon,
  ShieldOffIcon,
  TriangleAlertIcon,
} from 'lucide-react'
import type { TwoFactorStatusDto } from '#shared/two_factor'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { useCopy } from '~/hooks/use_copy'
import { formatDate } from '~/lib/format'
import { SettingsSection } from './settings_section'

const BASE = '/settings/account/two-factor'
const visitOptions = { preserveScroll: true, preserveState: false } as const

/** The secret in groups of four, as authenticator apps print it; spaces are ignored by them. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ')

function CodeField({
  id,
  value,
  onChange,
  error,
  label,
  hint,
}: {
  id: string
  value: string
  onChange: (value: string) => void
  error?: string
  label: string
  hint: string
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        data-testid={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="one-time-code"
        maxLength={20}
        className="max-w-48 font-mono tracking-widest"
        aria-invalid={!!error}
        aria-describedby={`${id}-${error ? 'error' : 'hint'}`}
      />
      {error ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : (
        <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      )}
    </div>
  )
}

/** The ten new recovery codes, shown once: copy or download them. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation()
  const { copied, copy } = useCopy()
  const text = codes.join('\n')

  function download() {
    const blob = new Blob([`${t('twoFactor.codes.fileHeader')}\n\n${text}\n`], {
      type: 'text/plain',
    })
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = 'recovery-codes.txt'
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }

  return (
    <div
      role="status"
      data-testid="recovery-codes"
      className="grid gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
    >
      <p className="text-sm font-medium">{t('twoFactor.codes.title')}</p>
      <ul className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm sm:w-fit">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copy(text)}
          data-testid="copy-recovery-codes"
          aria-live="polite"
        >
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {copied ? t('common.copied') : t('common.copy')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={download}
          data-testid="download-recovery-codes"
        >
          <DownloadIcon aria-hidden />
          {t('twoFactor.codes.download')}
        </Button>
      </div>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <TriangleAlertIcon aria-hidden className="mt-0.5 size-3.5 shrink-0 text-warning" />
        {t('twoFactor.codes.warning')}
      </p>
    </div>
  )
}

function Setup({ setup }: { setup: NonNullable<TwoFactorStatusDto['setup']> }) {
  const { t } = useTranslation()
  const { copied, copy } = useCopy()
  const form = useForm({ code: '' })

  return (
    <div className="grid gap-4" data-testid="two-factor-setup">
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>{t('twoFactor.setup.step1')}</li>
        <li>{t('twoFactor.setup.step2')}</li>
      </ol>
      <div className="flex flex-wrap items-start gap-4">
        <img
          src={setup.qr}
          alt={t('twoFactor.setup.qrAlt')}
          width={176}
          height={176}
          className="size-44 rounded-md border bg-white p-1"
          data-testid="two-factor-qr"
        />
        <div className="grid min-w-0 flex-1 gap-2">
          <p className="text-sm">{t('twoFactor.setup.manual')}</p>
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 rounded-md border bg-muted/40 px-3 py-2 font-mono text-sm break-all"
              data-testid="two-factor-secret"
            >
              {grouped(setup.secret)}
            </code>
            <Button
              variant="outline"
              size="sm"
              onClick={() => void copy(setup.secret)}
              aria-label={t('twoFactor.setup.copySecret')}
              data-testid="copy-two-factor-secret"
            >
              {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
            </Button>
          </div>
        </div>
      </div>
      <form
        className="grid gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          form.post(`${BASE}/confirm`, visitOptions)
        }}
      >
        <CodeField
          id="two-factor-confirm-code"
          label={t('twoFactor.setup.codeLabel')}
          hint={t('twoFactor.setup.codeHint')}
          value={form.data.code}
          onChange={(value) => form.setData('code', value)}
          error={form.errors.code}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            data-testid="two-factor-confirm"
            disabled={form.processing || !form.data.code.trim()}
          >
            {form.processing ? t('twoFactor.checking') : t('twoFactor.setup.confirm')}
          </Button>
          <Button
            type="button"
            variant="ghost"
            data-testid="two-factor-cancel-setup"
            onClick={() => router.delete(`${BASE}/setup`, visitOptions)}
          >
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </div>
  )
}

function Manage({ status }: { status: TwoFactorStatusDto }) {
  const { t } = useTranslation()
  const form = useForm({ code: '' })
  const [confirmOff, setConfirmOff] = useState(false)
  const hasCode = !!form.data.code.trim()

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground" data-testid="recovery-codes-left">
        {t('twoFactor.manage.codesLeft', { count: status.recoveryCodesLeft })}
      </p>
      <CodeField
        id="two-factor-manage-code"
        label={t('twoFactor.manage.codeLabel')}
        hint={t('twoFactor.manage.codeHint')}
        value={form.data.code}
        onChange={(value) => form.setData('code', value)}
        error={form.errors.code}
      />
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          data-testid="regenerate-recovery-codes"
          disabled={form.processing || !hasCode}
          onClick={() => form.post(`${BASE}/recovery-codes`, visitOptions)}
        >
          <RefreshCwIcon aria-hidden />
          {t('twoFactor.manage.regenerate')}
        </Button>
        <Button
          variant="destructive"
          data-testid="disable-two-factor"
          disabled={form.processing || !hasCode}
          onClick={() => setConfirmOff(true)}
        >
          <ShieldOffIcon aria-hidden />
          {t('twoFactor.manage.disable')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirmOff}
        onOpenChange={setConfirmOff}
        title={t('twoFactor.manage.disableConfirmTitle')}
        description={t('twoFactor.manage.disableConfirmDescription')}
        confirmLabel={t('twoFactor.manage.disable')}
        onConfirm={() => form.post(`${BASE}/disable`, visitOptions)}
      />
    </div>
  )
}

/** Account settings, Security: two-factor sign-in with an authenticator app. */
export function SecurityTab({
  twoFactor,
  recoveryCodes,
}: {
  twoFactor?: TwoFactorStatusDto
  recoveryCodes?: string[] | null
}) {
  const { t } = useTranslation()
  if (!twoFactor) return null

  return (
    <div className="grid gap-6">
      <SettingsSection
        testId="two-factor-section"
        title={t('twoFactor.title')}
        description={t('twoFactor.description')}
      >
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="two-factor-status">
          {twoFactor.enabled ? (
            <>
              <Badge>
                <ShieldCheckIcon aria-hidden />
                {t('twoFactor.on')}
              </Badge>
              <span className="text-muted-foreground">
                {t('twoFactor.since', { date: formatDate(twoFactor.enabledAt) })}
              </span>
            </>
          ) : (
            <Badge variant="secondary">{t('twoFactor.off')}</Badge>
          )}
        </div>
        {recoveryCodes && recoveryCodes.length > 0 && <RecoveryCodes codes={recoveryCodes} />}
        {twoFactor.enabled ? (
          <Manage status={twoFactor} />
        ) : twoFactor.setup ? (
          <Setup setup={twoFactor.setup} />
        ) : (
          <div>
            <Button
              data-testid="two-factor-start"
              onClick={() => router.post(`${BASE}/setup`, {}, visitOptions)}
            >
              <ShieldCheckIcon aria-hidden />
              {t('twoFactor.start')}
            </Button>
          </div>
        )}
      </SettingsSection>
    </div>
  )
}
