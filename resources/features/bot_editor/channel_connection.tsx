import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChannelName, ChannelStatus } from '#shared/bot/channels'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { useBotEditor } from './bot_editor_store'
import { useReadOnly } from './bot_paths'

/**
 * Connecting the bot to Telegram or WhatsApp (docs/channels.md). The secrets go to the
 * channel endpoints, never into the bot's settings: the form shows whether they are set,
 * and a secret field left empty keeps the saved value.
 */

type Fields = Record<string, string>

const FIELDS: Record<ChannelName, { name: string; secret?: boolean; optional?: boolean }[]> = {
  telegram: [{ name: 'botToken', secret: true }],
  whatsapp: [
    { name: 'systemUserAccessToken', secret: true },
    { name: 'phoneNumberId' },
    { name: 'appSecret', secret: true },
    { name: 'verifyToken', optional: true },
  ],
}

function CopyField({
  id,
  label,
  value,
  hint,
}: {
  id: string
  label: string
  value: string
  hint?: string
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        data-testid={id}
        readOnly
        value={value}
        onFocus={(event) => event.currentTarget.select()}
      />
      {hint && <FieldHint>{hint}</FieldHint>}
    </div>
  )
}

export function ChannelConnection({ channel }: { channel: ChannelName }) {
  const { t } = useTranslation()
  const botId = useBotEditor((state) => state.botId)
  const readOnly = useReadOnly()
  const formId = useId()
  const [status, setStatus] = useState<ChannelStatus | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [fields, setFields] = useState<Fields>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const controller = new AbortController()
    jsonFetch<{ channels: ChannelStatus[] }>(`/api/v1/bots/${botId}/channels`, {
      signal: controller.signal,
    })
      .then(({ channels }) => setStatus(channels.find((c) => c.channel === channel) ?? null))
      .catch((caught) => {
        if (!controller.signal.aborted) setLoadError(errorDescription(caught))
      })
    return () => controller.abort()
  }, [botId, channel])

  async function connect(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const body = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim()))
      const next = await jsonFetch<ChannelStatus>(`/api/v1/bots/${botId}/channels/${channel}`, {
        method: 'PUT',
        body,
      })
      setStatus(next)
      // Secrets are not kept in the page once saved.
      setFields({})
      showToast('success', t('botSettings.channels.saved'))
    } catch (caught) {
      // What was typed stays in the form so that it can be corrected.
      setError(errorDescription(caught))
    } finally {
      setBusy(false)
    }
  }

  async function disconnect() {
    setBusy(true)
    setError(null)
    try {
      await jsonFetch(`/api/v1/bots/${botId}/channels/${channel}`, { method: 'DELETE' })
      setStatus({ channel, connected: false, webhookUrl: null, lastError: null })
    } catch (caught) {
      setError(errorDescription(caught))
    } finally {
      setBusy(false)
    }
  }

  if (loadError) {
    return (
      <div role="alert" data-testid={`channel-${channel}-load-error`}>
        <FieldError>{loadError}</FieldError>
      </div>
    )
  }
  if (!status) {
    return (
      <p className="text-sm text-muted-foreground" aria-busy="true">
        {t('botSettings.channels.loading')}
      </p>
    )
  }

  const connected = status.connected
  return (
    <section
      className="grid gap-3"
      data-testid={`channel-${channel}`}
      aria-labelledby={`${formId}-title`}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={`${formId}-title`} className="text-sm font-medium">
          {t('botSettings.channels.connection')}
        </h3>
        <span
          data-testid={`channel-${channel}-state`}
          className={connected ? 'text-xs text-emerald-600' : 'text-xs text-muted-foreground'}
        >
          {connected ? t('botSettings.channels.connected') : t('botSettings.channels.notConnected')}
        </span>
      </div>
      {status.lastError && (
        <div role="alert" data-testid={`channel-${channel}-last-error`}>
          <FieldError>
            {t('botSettings.channels.lastError', { error: status.lastError })}
          </FieldError>
        </div>
      )}
      {channel === 'whatsapp' && connected && !status.hasAppSecret && (
        <div role="alert" data-testid="channel-whatsapp-no-app-secret">
          <FieldError>{t('botSettings.channels.appSecretMissing')}</FieldError>
        </div>
      )}
      {channel === 'telegram' && (
        <CopyField
          id="settings-telegram-webhookUrl"
          label={t('botSettings.channels.webhookUrl')}
          value={status.webhookUrl ?? ''}
          hint={
            status.webhookUrl
              ? t('botSettings.channels.webhookHint')
              : t('botSettings.channels.webhookPending')
          }
        />
      )}
      {channel === 'whatsapp' && connected && status.callbackUrl && (
        <>
          <CopyField
            id="settings-whatsapp-callbackUrl"
            label={t('botSettings.channels.callbackUrl')}
            value={status.callbackUrl}
          />
          {status.verifyToken && (
            <CopyField
              id="settings-whatsapp-verifyToken-value"
              label={t('botSettings.channels.verifyToken')}
              value={status.verifyToken}
              hint={t('botSettings.channels.callbackHint')}
            />
          )}
        </>
      )}
      <form
        className="grid gap-3"
        onSubmit={connect}
        aria-describedby={error ? `${formId}-error` : undefined}
      >
        <fieldset className="grid gap-3" disabled={readOnly || busy}>
          {FIELDS[channel].map((field) => {
            const id = `${formId}-${field.name}`
            const isSet =
              connected &&
              (field.name === 'phoneNumberId'
                ? !!status.phoneNumberId
                : field.name === 'appSecret'
                  ? !!status.hasAppSecret
                  : field.secret)
            return (
              <div className="grid gap-1.5" key={field.name}>
                <Label htmlFor={id}>{t(`botSettings.channels.fields.${field.name}`)}</Label>
                <Input
                  id={id}
                  data-testid={`channel-${channel}-${field.name}`}
                  type={field.secret ? 'password' : 'text'}
                  autoComplete="off"
                  value={fields[field.name] ?? ''}
                  placeholder={
                    field.name === 'phoneNumberId' && status.phoneNumberId
                      ? status.phoneNumberId
                      : isSet && field.secret
                        ? '••••••••'
                        : ''
                  }
                  onChange={(event) =>
                    setFields((current) => ({ ...current, [field.name]: event.target.value }))
                  }
                />
                <FieldHint>
                  {t(`botSettings.channels.hints.${field.name}`)}
                  {isSet && field.secret ? ` ${t('botSettings.channels.secretKept')}` : ''}
                </FieldHint>
              </div>
            )
          })}
          {error && (
            <div role="alert" id={`${formId}-error`} data-testid={`channel-${channel}-error`}>
              <FieldError>{error}</FieldError>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" data-testid={`channel-${channel}-connect`}>
              {connected ? t('botSettings.channels.update') : t('botSettings.channels.connect')}
            </Button>
            {connected && (
              <Button
                type="button"
                size="sm"
                variant="outline"
                data-testid={`channel-${channel}-disconnect`}
                onClick={disconnect}
              >
                {t('botSettings.channels.disconnect')}
              </Button>
            )}
          </div>
        </fieldset>
      </form>
    </section>
  )
}
