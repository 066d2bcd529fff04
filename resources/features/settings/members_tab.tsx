import { router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { MailIcon, UsersIcon } from 'lucide-react'
import type { InvitationDto, MemberDto } from '#shared/types'
import { UNLIMITED } from '#shared/plans'
import { WORKSPACE_ROLES, type WorkspaceRole } from '#shared/workspace_roles'
import { usePageProps } from '~/hooks/use_shared_props'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import { PlanLimitReason } from '~/features/plans/plan_limit'
import { Button } from '~/components/ui/button'
import { Badge } from '~/components/ui/badge'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { EmptyState } from '~/components/empty_state'
import { UserAvatar } from '~/features/shell/user_menu'
import { formatDate } from '~/lib/format'
import { SettingsSection } from './settings_section'

function RoleSelect({
  value,
  onChange,
  disabled,
  testId,
  label,
  id,
}: {
  value: WorkspaceRole
  onChange: (role: WorkspaceRole) => void
  disabled?: boolean
  testId?: string
  label: string
  id?: string
}) {
  const { t } = useTranslation()
  return (
    <Select value={value} onValueChange={(v) => onChange(v as WorkspaceRole)} disabled={disabled}>
      <SelectTrigger size="sm" className="w-32" data-testid={testId} aria-label={label} id={id}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {WORKSPACE_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {t(`roles.${role}`)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

export function MembersTab({
  members,
  invitations,
  memberLimit,
}: {
  members: MemberDto[]
  invitations: InvitationDto[]
  memberLimit: number
}) {
  const { t } = useTranslation()
  const { currentWorkspace, user } = usePageProps()
  const form = useForm<{ email: string; role: WorkspaceRole }>({ email: '', role: 'MEMBER' })

  if (!currentWorkspace) return null
  const workspaceId = currentWorkspace.id
  const isAdmin = currentWorkspace.role === 'ADMIN'
  const memberList = members ?? []
  const invitationList = invitations ?? []
  const used = memberList.length + invitationList.length
  const unlimited = memberLimit === UNLIMITED
  const full = !unlimited && typeof memberLimit === 'number' && used >= memberLimit

  function invite(event: React.FormEvent) {
    event.preventDefault()
    form.post(`/workspaces/${workspaceId}/invitations`, {
      preserveScroll: true,
      preserveState: true,
      onSuccess: (page) => {
        const errors = (page.props as { errors?: Record<string, string> }).errors ?? {}
        if (Object.keys(errors).length === 0) form.reset('email')
      },
    })
  }

  const visitOptions = { preserveScroll: true, preserveState: true } as const

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {isAdmin ? t('settings.members.description') : t('settings.members.readOnly')}
        </p>
        <Badge variant={full ? 'destructive' : 'secondary'} data-testid="seat-count">
          {unlimited
            ? t('settings.members.seatsUnlimited', { count: used })
            : t('settings.members.seats', { count: used, limit: memberLimit })}
        </Badge>
      </div>

      {isAdmin && (
        <SettingsSection
          title={t('settings.members.inviteTitle')}
          description={t('settings.members.inviteDescription')}
        >
          {/* At the seat limit the form waits for a plan with room, before anything is typed. */}
          <form onSubmit={invite} className="grid gap-2" noValidate>
            {full && (
              <PlanLimitReason
                id="invite-limit"
                reason={t('planLimits.multipleUser', { limit: memberLimit })}
                limitKey="multipleUser"
                className="text-sm"
              />
            )}
            <Label htmlFor="invite-email">{t('settings.members.emailLabel')}</Label>
            <div className="flex flex-wrap items-start gap-2">
              <Input
                id="invite-email"
                data-testid="invite-email"
                type="email"
                autoComplete="off"
                value={form.data.email}
                onChange={(e) => form.setData('email', e.target.value)}
                placeholder={t('settings.members.emailPlaceholder')}
                className="min-w-48 flex-1"
                disabled={full}
                aria-invalid={!!form.errors.email}
                aria-describedby={
                  full ? 'invite-limit' : form.errors.email ? 'invite-email-error' : undefined
                }
              />
              <RoleSelect
                value={form.data.role}
                onChange={(role) => form.setData('role', role)}
                testId="invite-role"
                label={t('settings.members.roleLabel')}
                disabled={full}
              />
              <Button
                type="submit"
                data-testid="invite-submit"
                disabled={form.processing || full}
                aria-describedby={full ? 'invite-limit' : undefined}
              >
                {form.processing ? t('settings.members.inviting') : t('settings.members.invite')}
              </Button>
            </div>
            <FieldError id="invite-email-error">{form.errors.email}</FieldError>
          </form>
        </SettingsSection>
      )}

      <section className="grid gap-2" aria-labelledby="members-heading">
        <h3 id="members-heading" className="text-sm font-semibold">
          {t('settings.members.membersTitle')}
        </h3>
        {memberList.length === 0 ? (
          <EmptyState
            icon={UsersIcon}
            title={t('settings.members.emptyMembersTitle')}
            description={t('settings.members.emptyMembersDescription')}
          />
        ) : (
          <ul className="divide-y rounded-lg border">
            {memberList.map((member) => {
              const isSelf = member.userId === user?.id
              return (
                <li
                  key={member.userId}
                  data-testid="member-row"
                  data-email={member.email}
                  className="flex flex-wrap items-center gap-3 px-4 py-3"
                >
                  <UserAvatar name={member.name} email={member.email} image={member.image} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">
                      {member.name || member.email}
                      {isSelf && (
                        <span className="ml-1 text-muted-foreground">
                          {t('settings.members.you')}
                        </span>
                      )}
                    </p>
                    {member.name && (
                      <p className="truncate text-xs text-muted-foreground">{member.email}</p>
                    )}
                  </div>
                  {member.isOwner && <Badge variant="outline">{t('settings.members.owner')}</Badge>}
                  {isAdmin && !member.isOwner ? (
                    <>
                      <RoleSelect
                        value={member.role}
                        label={t('settings.members.roleFor', { email: member.email })}
                        testId="member-role"
                        onChange={(role) =>
                          router.patch(
                            `/workspaces/${workspaceId}/members/${member.userId}`,
                            { role },
                            visitOptions
                          )
                        }
                      />
                      <ConfirmDialog
                        trigger={
                          <Button
                            variant="ghost"
                            size="sm"
                            className="text-destructive"
                            data-testid="remove-member"
                          >
                            {t('settings.members.remove')}
                          </Button>
                        }
                        title={t('settings.members.removeTitle', { email: member.email })}
                        description={t('settings.members.removeDescription')}
                        confirmLabel={t('settings.members.remove')}
                        onConfirm={() =>
                          router.delete(
                            `/workspaces/${workspaceId}/members/${member.userId}`,
                            visitOptions
                          )
                        }
                      />
                    </>
                  ) : (
                    <Badge variant="secondary" data-testid="member-role-label">
                      {t(`roles.${member.role}`)}
                    </Badge>
                  )}
                </li>
              )
            })}
          </ul>
        )}
      </section>

      <section className="grid gap-2" aria-labelledby="invitations-heading">
        <h3 id="invitations-heading" className="text-sm font-semibold">
          {t('settings.members.invitationsTitle')}
        </h3>
        {invitationList.length === 0 ? (
          <EmptyState
            icon={MailIcon}
            title={t('settings.members.emptyInvitationsTitle')}
            description={
              isAdmin
                ? t('settings.members.emptyInvitationsDescription')
                : t('settings.members.emptyInvitationsReadOnly')
            }
            className="py-6"
            testId="invitations-empty"
          />
        ) : (
          <ul className="divide-y rounded-lg border">
            {invitationList.map((invitation) => (
              <li
                key={invitation.id}
                data-testid="invitation-row"
                data-email={invitation.email}
                className="flex flex-wrap items-center gap-3 px-4 py-3"
              >
                <span className="flex size-8 items-center justify-center rounded-full bg-muted">
                  <MailIcon aria-hidden className="size-4 text-muted-foreground" />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{invitation.email}</p>
                  <p className="text-xs text-muted-foreground">
                    {t('settings.members.invitedOn', { date: formatDate(invitation.createdAt) })}
                  </p>
                </div>
                <Badge variant="secondary">{t(`roles.${invitation.role}`)}</Badge>
                {isAdmin && (
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="cancel-invitation"
                    onClick={() =>
                      router.delete(
                        `/workspaces/${workspaceId}/invitations/${invitation.id}`,
                        visitOptions
                      )
                    }
                  >
                    {t('settings.members.cancelInvitation')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
