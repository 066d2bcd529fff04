import { useEffect, useState } from 'react'
import { Head, router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  BuildingIcon,
  CoinsIcon,
  SearchIcon,
  ShieldCheckIcon,
  ShieldOffIcon,
  UserIcon,
} from 'lucide-react'
import type { AdminUserRow, AdminWorkspaceRow, AuditEntryDto, LimitUsage } from '#shared/plan_admin'
import { PLAN_LABELS, type PlanDefinition, type PlanName } from '#shared/plans'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { AdminNav } from '~/features/admin/admin_nav'
import { EmptyState } from '~/components/empty_state'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { formatDate, formatDateTime } from '~/lib/format'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'

interface Props {
  q: string
  workspaces: AdminWorkspaceRow[]
  users: AdminUserRow[]
  plans: PlanDefinition[]
  audit: AuditEntryDto[]
  billingEnabled: boolean
}

/** What the plan dialog edits: a workspace's plan or an account's own plan. */
interface PlanTarget {
  kind: 'workspace' | 'user'
  id: string
  label: string
  plan: PlanName
  planEndsAt: string | null
}

/** /admin/workspaces: plans, end dates, suspension and AI credits, with the log of changes. */
export default function AdminWorkspaces({
  q,
  workspaces,
  users,
  plans,
  audit,
  billingEnabled,
}: Props) {
  const { t } = useTranslation()
  const [search, setSearch] = useState(q)
  const [planTarget, setPlanTarget] = useState<PlanTarget | null>(null)
  const [creditsFor, setCreditsFor] = useState<AdminUserRow | null>(null)

  function submitSearch(event: React.FormEvent) {
    event.preventDefault()
    router.get('/admin/workspaces', search.trim() ? { q: search.trim() } : {}, {
      preserveState: true,
      preserveScroll: true,
    })
  }

  function suspend(workspace: AdminWorkspaceRow, suspended: boolean) {
    router.put(
      `/admin/workspaces/${workspace.id}/suspended`,
      { suspended },
      {
        preserveScroll: true,
        onSuccess: () =>
          showToast(
            'success',
            suspended ? t('planAdmin.suspendedToast') : t('planAdmin.unsuspendedToast'),
            workspace.name
          ),
      }
    )
  }

  return (
    <AppLayout>
      <Head title={t('planAdmin.title')} />
      <PageHeader title={t('planAdmin.title')} description={t('planAdmin.description')} />
      <AdminNav />
      <div className="grid gap-8 p-4 sm:p-6">
        <p className="text-sm text-muted-foreground" data-testid="admin-billing-status">
          {billingEnabled ? t('planAdmin.billingOn') : t('planAdmin.billingOff')}
        </p>

        <form
          role="search"
          onSubmit={submitSearch}
          className="flex max-w-xl items-center gap-2"
          aria-label={t('planAdmin.searchLabel')}
        >
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t('planAdmin.searchPlaceholder')}
            aria-label={t('planAdmin.searchLabel')}
            maxLength={255}
            data-testid="admin-search"
          />
          <Button type="submit" variant="secondary" data-testid="admin-search-submit">
            <SearchIcon aria-hidden />
            <span className="sr-only sm:not-sr-only">{t('planAdmin.search')}</span>
          </Button>
        </form>

        <section aria-labelledby="admin-workspaces" className="grid gap-3">
          <h2 id="admin-workspaces" className="text-base font-semibold">
            {t('planAdmin.workspaces')}
          </h2>
          {workspaces.length === 0 ? (
            <EmptyState
              icon={BuildingIcon}
              title={t('planAdmin.noWorkspaces')}
              testId="admin-workspaces-empty"
            />
          ) : (
            <ul className="grid gap-3 lg:grid-cols-2">
              {workspaces.map((workspace) => (
                <li
                  key={workspace.id}
                  className="grid gap-3 rounded-lg border p-4"
                  data-testid="admin-workspace"
                  data-id={workspace.id}
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="min-w-0 font-medium break-words">{workspace.name}</span>
                    <PlanBadge plan={workspace.plan} />
                    {workspace.isSuspended && (
                      <Badge variant="destructive" data-testid="admin-suspended-badge">
                        {t('planAdmin.suspended')}
                      </Badge>
                    )}
                    {workspace.isPastDue && (
                      <Badge variant="outline">{t('planAdmin.pastDue')}</Badge>
                    )}
                  </div>
                  <dl className="grid gap-1 text-sm text-muted-foreground">
                    <div className="flex flex-wrap gap-x-1">
                      <dt>{t('planAdmin.owner')}</dt>
                      <dd className="break-all text-foreground">
                        {workspace.owner
                          ? t('planAdmin.ownerPlan', {
                              email: workspace.owner.email,
                              plan: PLAN_LABELS[workspace.owner.plan],
                            })
                          : '–'}
                      </dd>
                    </div>
                    <div className="flex flex-wrap gap-x-1">
                      <dt>{t('planAdmin.endsAt')}</dt>
                      <dd className="text-foreground" data-testid="admin-workspace-ends">
                        {workspace.planEndsAt ? formatDate(workspace.planEndsAt) : '–'}
                      </dd>
                    </div>
                  </dl>
                  <UsageList
                    items={[
                      ['botCreation', workspace.usage.botCreation],
                      ['botPublish', workspace.usage.botPublish],
                      ['workflowCreation', workspace.usage.workflowCreation],
                      ['workflowActivation', workspace.usage.workflowActivation],
                      ['multipleUser', workspace.usage.multipleUser],
                    ]}
                  />
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      data-testid="admin-workspace-plan"
                      onClick={() =>
                        setPlanTarget({
                          kind: 'workspace',
                          id: workspace.id,
                          label: workspace.name,
                          plan: workspace.plan,
                          planEndsAt: workspace.planEndsAt,
                        })
                      }
                    >
                      {t('planAdmin.changePlan')}
                    </Button>
                    {workspace.isSuspended ? (
                      <Button
                        size="sm"
                        variant="outline"
                        data-testid="admin-unsuspend"
                        onClick={() => suspend(workspace, false)}
                      >
                        {t('planAdmin.unsuspend')}
                      </Button>
                    ) : (
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="outline" data-testid="admin-suspend">
                            {t('planAdmin.suspend')}
                          </Button>
                        }
                        title={t('planAdmin.suspendTitle', { name: workspace.name })}
                        description={t('planAdmin.suspendDescription')}
                        confirmLabel={t('planAdmin.suspend')}
                        onConfirm={() => suspend(workspace, true)}
                      />
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="admin-users" className="grid gap-3">
          <h2 id="admin-users" className="text-base font-semibold">
            {t('planAdmin.accounts')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('planAdmin.accountsHint')}</p>
          {users.length === 0 ? (
            <EmptyState
              icon={UserIcon}
              title={t('planAdmin.noAccounts')}
              testId="admin-users-empty"
            />
          ) : (
            <ul className="grid gap-3 lg:grid-cols-2">
              {users.map((user) => (
                <li
                  key={user.id}
                  className="grid gap-3 rounded-lg border p-4"
                  data-testid="admin-user"
                  data-email={user.email}
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="min-w-0 font-medium break-all">{user.email}</span>
                    <PlanBadge plan={user.plan} />
                    {user.twoFactorEnabled && (
                      <Badge variant="outline" data-testid="admin-user-2fa">
                        <ShieldCheckIcon aria-hidden />
                        {t('twoFactor.admin.badge')}
                      </Badge>
                    )}
                  </div>
                  <dl className="grid gap-1 text-sm text-muted-foreground">
                    {user.name && (
                      <div className="flex flex-wrap gap-x-1">
                        <dt className="sr-only">{t('planAdmin.name')}</dt>
                        <dd className="text-foreground">{user.name}</dd>
                      </div>
                    )}
                    <div className="flex flex-wrap gap-x-1">
                      <dt>{t('planAdmin.endsAt')}</dt>
                      <dd className="text-foreground">
                        {user.planEndsAt ? formatDate(user.planEndsAt) : '–'}
                      </dd>
                    </div>
                    <div className="flex flex-wrap gap-x-1">
                      <dt>{t('planAdmin.aiCredits')}</dt>
                      <dd className="text-foreground tabular-nums" data-testid="admin-user-credits">
                        {user.aiCredits}
                      </dd>
                    </div>
                  </dl>
                  <UsageList items={[['multipleWorkspace', user.workspaces]]} />
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      data-testid="admin-user-plan"
                      onClick={() =>
                        setPlanTarget({
                          kind: 'user',
                          id: user.id,
                          label: user.email,
                          plan: user.plan,
                          planEndsAt: user.planEndsAt,
                        })
                      }
                    >
                      {t('planAdmin.changePlan')}
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      data-testid="admin-user-credits-grant"
                      onClick={() => setCreditsFor(user)}
                    >
                      <CoinsIcon aria-hidden />
                      {t('planAdmin.grantCredits')}
                    </Button>
                    {user.twoFactorEnabled && (
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="outline" data-testid="admin-user-reset-2fa">
                            <ShieldOffIcon aria-hidden />
                            {t('twoFactor.admin.reset')}
                          </Button>
                        }
                        title={t('twoFactor.admin.resetTitle', { email: user.email })}
                        description={t('twoFactor.admin.resetDescription')}
                        confirmLabel={t('twoFactor.admin.reset')}
                        onConfirm={() =>
                          router.delete(`/admin/users/${user.id}/two-factor`, {
                            preserveScroll: true,
                          })
                        }
                      />
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="admin-audit" className="grid gap-3">
          <h2 id="admin-audit" className="text-base font-semibold">
            {t('planAdmin.audit')}
          </h2>
          {audit.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('planAdmin.auditEmpty')}</p>
          ) : (
            <ol className="grid gap-1 text-sm" data-testid="admin-audit">
              {audit.map((entry) => (
                <li
                  key={entry.id}
                  className="flex flex-wrap gap-x-2 border-b py-1.5 last:border-b-0"
                  data-testid="admin-audit-entry"
                >
                  <time className="text-muted-foreground tabular-nums" dateTime={entry.createdAt}>
                    {formatDateTime(entry.createdAt)}
                  </time>
                  <span className="font-medium break-all">{entry.actorLabel}</span>
                  <span className="break-words">{auditText(t, entry)}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>

      <PlanDialog target={planTarget} plans={plans} onClose={() => setPlanTarget(null)} />
      <CreditsDialog user={creditsFor} onClose={() => setCreditsFor(null)} />
    </AppLayout>
  )
}

function auditText(t: ReturnType<typeof useTranslation>['t'], entry: AuditEntryDto) {
  const target = entry.targetLabel
  if (entry.action === 'plan') {
    const after = (entry.details.after ?? {}) as { plan?: PlanName; endsAt?: string | null }
    return t('planAdmin.auditPlan', {
      target,
      plan: after.plan ? PLAN_LABELS[after.plan] : '',
      date: after.endsAt ? formatDate(after.endsAt) : '–',
    })
  }
  if (entry.action === 'reset_2fa') return t('twoFactor.admin.audit', { target })
  if (entry.action === 'ai_credits') {
    return t('planAdmin.auditCredits', { target, amount: String(entry.details.amount ?? '') })
  }
  return entry.action === 'suspend'
    ? t('planAdmin.auditSuspend', { target })
    : t('planAdmin.auditUnsuspend', { target })
}

function PlanBadge({ plan }: { plan: PlanName }) {
  return (
    <Badge variant={plan === 'FREE' ? 'outline' : 'secondary'} data-testid="admin-plan-badge">
      {PLAN_LABELS[plan]}
    </Badge>
  )
}

/** "3 / 10 bots", marked when the limit is reached. */
function UsageList({ items }: { items: [string, LimitUsage][] }) {
  const { t } = useTranslation()
  return (
    <ul className="flex flex-wrap gap-1.5 text-xs" aria-label={t('planAdmin.usage')}>
      {items.map(([key, { used, limit }]) => {
        const full = limit !== -1 && used >= limit
        return (
          <li
            key={key}
            data-testid={`admin-usage-${key}`}
            data-full={full || undefined}
            className={cn(
              'rounded-md border px-2 py-0.5 tabular-nums',
              // A deeper red than text-destructive: small text on the tint needs 4.5:1.
              full && 'border-destructive/50 bg-destructive/10 text-red-700 dark:text-red-300'
            )}
          >
            {t(`plans.limits.${key}`)}:{' '}
            {limit === -1
              ? t('planAdmin.usedOfUnlimited', { used })
              : t('planAdmin.usedOf', { used, limit })}
          </li>
        )
      })}
    </ul>
  )
}

function PlanDialog({
  target,
  plans,
  onClose,
}: {
  target: PlanTarget | null
  plans: PlanDefinition[]
  onClose: () => void
}) {
  const { t } = useTranslation()
  const form = useForm<{ plan: PlanName; endsAt: string }>({ plan: 'FREE', endsAt: '' })

  useEffect(() => {
    if (!target) return
    form.setData({ plan: target.plan, endsAt: target.planEndsAt?.slice(0, 10) ?? '' })
    form.clearErrors()
  }, [target])

  function submit(event: React.FormEvent) {
    event.preventDefault()
    if (!target) return
    form.transform((data) => ({ plan: data.plan, endsAt: data.endsAt || null }))
    const path =
      target.kind === 'workspace'
        ? `/admin/workspaces/${target.id}/plan`
        : `/admin/users/${target.id}/plan`
    form.put(path, {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => {
        onClose()
        showToast('success', t('planAdmin.planSaved'), target.label)
      },
    })
  }

  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="admin-plan-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('planAdmin.planTitle', { name: target?.label ?? '' })}</DialogTitle>
            <DialogDescription>
              {target?.kind === 'user'
                ? t('planAdmin.planUserDescription')
                : t('planAdmin.planWorkspaceDescription')}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="admin-plan-select">{t('planAdmin.plan')}</Label>
            <Select
              value={form.data.plan}
              onValueChange={(value) => form.setData('plan', value as PlanName)}
            >
              <SelectTrigger
                id="admin-plan-select"
                className="w-full"
                data-testid="admin-plan-select"
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {plans.map((plan) => (
                  <SelectItem key={plan.name} value={plan.name}>
                    {plan.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError>{form.errors.plan}</FieldError>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="admin-plan-ends">{t('planAdmin.endsAt')}</Label>
            <Input
              id="admin-plan-ends"
              type="date"
              value={form.data.endsAt}
              onChange={(e) => form.setData('endsAt', e.target.value)}
              aria-invalid={!!form.errors.endsAt}
              aria-describedby="admin-plan-ends-hint admin-plan-ends-error"
              data-testid="admin-plan-ends"
            />
            <FieldHint id="admin-plan-ends-hint">{t('planAdmin.endsAtHint')}</FieldHint>
            <FieldError id="admin-plan-ends-error">{form.errors.endsAt}</FieldError>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={form.processing} data-testid="admin-plan-save">
              {t('common.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function CreditsDialog({ user, onClose }: { user: AdminUserRow | null; onClose: () => void }) {
  const { t } = useTranslation()
  const form = useForm({ amount: '' })

  useEffect(() => {
    if (!user) return
    form.setData({ amount: '' })
    form.clearErrors()
  }, [user])

  function submit(event: React.FormEvent) {
    event.preventDefault()
    if (!user) return
    form.transform((data) => ({ amount: data.amount.trim() || null }))
    form.post(`/admin/users/${user.id}/ai-credits`, {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => {
        onClose()
        showToast('success', t('planAdmin.creditsGranted'), user.email)
      },
    })
  }

  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="admin-credits-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('planAdmin.creditsTitle', { email: user?.email ?? '' })}</DialogTitle>
            <DialogDescription>
              {t('planAdmin.creditsDescription', { credits: user?.aiCredits ?? '0' })}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="admin-credits-amount">{t('planAdmin.creditsAmount')}</Label>
            <Input
              id="admin-credits-amount"
              type="number"
              inputMode="decimal"
              step="any"
              value={form.data.amount}
              onChange={(e) => form.setData('amount', e.target.value)}
              aria-invalid={!!form.errors.amount}
              aria-describedby="admin-credits-amount-error"
              data-testid="admin-credits-amount"
              autoFocus
            />
            <FieldError id="admin-credits-amount-error">{form.errors.amount}</FieldError>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={form.processing} data-testid="admin-credits-save">
              {t('planAdmin.grantCredits')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
