import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Trash2Icon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import { Skeleton } from '~/components/ui/skeleton'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { HttpError, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { useBotEditor } from './bot_editor_store'

/** Full access, Can edit, Can view (app/models/bot_invitation.ts). */
const INVITATION_TYPES = ['FULL_ACCESS', 'WRITE', 'READ'] as const
type InvitationType = (typeof INVITATION_TYPES)[number]

const TYPE_KEYS: Record<InvitationType, string> = {
  FULL_ACCESS: 'botSettings.share.fullAccess',
  WRITE: 'botSettings.share.canEdit',
  READ: 'botSettings.share.canView',
}

/** app/dtos/bot_invitation_dto.ts */
interface BotInvitation {
  id: string
  botId: string
  email: string
  type: InvitationType
  createdBy: string | null
  createdAt: string
}

function errorText(error: unknown) {
  const { message, description } = error as { message: string; description?: string }
  return description && description !== message ? `${message}: ${description}` : message
}

function TypeSelect({
  value,
  onChange,
  testId,
  label,
  disabled,
}: {
  value: InvitationType
  onChange: (value: InvitationType) => void
  testId: string
  label: string
  disabled?: boolean
}) {
  const { t } = useTranslation()
  return (
    <Select
      value={value}
      disabled={disabled}
      onValueChange={(next) => onChange(next as InvitationType)}
    >
      <SelectTrigger size="sm" className="w-32 shrink-0" aria-label={label} data-testid={testId}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {INVITATION_TYPES.map((type) => (
          <SelectItem key={type} value={type}>
            {t(TYPE_KEYS[type])}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

/**
 * The Share popover's collaborators: invite someone outside the
 * workspace by e-mail with Full access, Can edit or Can view; pending invitations are
 * listed with their type, which can be changed, and can be removed.
 */
export function InvitationsSection() {
  const { t } = useTranslation()
  const botId = useBotEditor((state) => state.botId)
  const [invitations, setInvitations] = useState<BotInvitation[] | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    jsonFetch<{ invitations: BotInvitation[] }>(`/api/bots/${botId}/invitations`, {
      signal: controller.signal,
    })
      .then((body) => setInvitations(body.invitations))
      .catch((error) => {
        if (controller.signal.aborted) return
        setInvitations([])
        showToast('error', t('botSettings.share.fetchError'), errorText(error))
      })
    return () => controller.abort()
  }, [botId, t])

  const replace = (id: string, next: BotInvitation | null) =>
    setInvitations((list) =>
      (list ?? []).flatMap((item) => (item.id === id ? (next ? [next] : []) : [item]))
    )

  return (
    <section className="grid gap-3" data-testid="share-invitations">
      <InviteForm
        botId={botId}
        onInvited={(invitation) => setInvitations((list) => [...(list ?? []), invitation])}
      />
      {invitations === null ? (
        <div className="grid gap-2" data-testid="invitations-loading">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : invitations.length === 0 ? (
        <p className="text-xs text-muted-foreground" data-testid="invitations-empty">
          {t('botSettings.share.empty')}
        </p>
      ) : (
        <ul className="grid gap-2" aria-label={t('botSettings.share.pending')}>
          {invitations.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              invitation={invitation}
              onChange={(next) => replace(invitation.id, next)}
            />
          ))}
        </ul>
      )}
    </section>
  )
}

function InviteForm({
  botId,
  onInvited,
}: {
  botId: string
  onInvited: (invitation: BotInvitation) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const [email, setEmail] = useState('')
  const [type, setType] = useState<InvitationType>('READ')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    if (!email.trim()) return setError(t('botSettings.share.emailRequired'))
    setBusy(true)
    setError(null)
    try {
      const { invitation } = await jsonFetch<{ invitation: BotInvitation }>(
        `/api/bots/${botId}/invitations`,
        { method: 'POST', body: { email: email.trim(), type } }
      )
      onInvited(invitation)
      setEmail('')
      showToast('success', t('botSettings.share.sent'), invitation.email)
    } catch (caught) {
      setError(caught instanceof HttpError ? errorText(caught) : (caught as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="grid gap-1.5" onSubmit={submit} noValidate>
      <Label htmlFor={`${id}-email`}>{t('botSettings.share.invite')}</Label>
      <div className="flex gap-2">
        <Input
          id={`${id}-email`}
          type="email"
          data-testid="invite-email"
          value={email}
          maxLength={254}
          autoComplete="off"
          placeholder={t('botSettings.share.emailPlaceholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setEmail(event.target.value)
            setError(null)
          }}
          className="h-8"
        />
        <TypeSelect
          value={type}
          onChange={setType}
          testId="invite-type"
          label={t('botSettings.share.accessType')}
        />
        <Button type="submit" size="sm" data-testid="invite-submit" disabled={busy}>
          {t('botSettings.share.send')}
        </Button>
      </div>
      <div data-testid="invite-error">
        <FieldError id={`${id}-error`}>{error}</FieldError>
      </div>
    </form>
  )
}

function InvitationRow({
  invitation,
  onChange,
}: {
  invitation: BotInvitation
  onChange: (next: BotInvitation | null) => void
}) {
  const { t } = useTranslation()
  const [confirming, setConfirming] = useState(false)
  const url = `/api/bots/${invitation.botId}/invitations/${invitation.id}`

  async function changeType(type: InvitationType) {
    // Optimistic: the previous type comes back if the server refuses.
    onChange({ ...invitation, type })
    try {
      await jsonFetch(url, { method: 'PATCH', body: { type } })
    } catch (error) {
      onChange(invitation)
      showToast('error', t('botSettings.share.updateError'), errorText(error))
    }
  }

  async function remove() {
    onChange(null)
    try {
      await jsonFetch(url, { method: 'DELETE' })
    } catch (error) {
      onChange(invitation)
      showToast('error', t('botSettings.share.removeError'), errorText(error))
    }
  }

  return (
    <li
      className="flex items-center gap-2 text-sm"
      data-testid="bot-invitation"
      data-email={invitation.email}
    >
      <span className="min-w-0 flex-1 truncate" title={invitation.email}>
        {invitation.email}
        <span className="ms-1.5 text-xs text-muted-foreground">
          {t('botSettings.share.pendingBadge')}
        </span>
      </span>
      {confirming ? (
        <>
          <Button
            size="sm"
            variant="destructive"
            data-testid="bot-invitation-remove-confirm"
            onClick={() => void remove()}
          >
            {t('botSettings.share.removeConfirm')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
        </>
      ) : (
        <>
          <TypeSelect
            value={invitation.type}
            onChange={(type) => void changeType(type)}
            testId="bot-invitation-type"
            label={t('botSettings.share.typeOf', { email: invitation.email })}
          />
          <Button
            size="icon-sm"
            variant="ghost"
            data-testid="bot-invitation-remove"
            aria-label={t('botSettings.share.remove', { email: invitation.email })}
            onClick={() => setConfirming(true)}
          >
            <Trash2Icon />
          </Button>
        </>
      )}
    </li>
  )
}
