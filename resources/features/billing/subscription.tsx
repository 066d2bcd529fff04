import { useState } from 'react'
import { Deferred, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { AlertTriangleIcon, ExternalLinkIcon, LoaderCircleIcon } from 'lucide-react'
import type { BillingTabDto, InvoiceDto } from '#shared/billing'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { EmptyState } from '~/components/empty_state'
import { formatDate, formatNumber, formatPrice } from '~/lib/format'
import { cn } from '~/lib/utils'
import { SettingsSection } from '~/features/settings/settings_section'
import { usePageProps } from '~/hooks/use_shared_props'

/** The Stripe customer portal: the server answers with a location visit to Stripe. */
export function openBillingPortal(options: { onFinish?: () => void } = {}) {
  router.post('/billing/portal', {}, { preserveScroll: true, onFinish: options.onFinish })
}

export function PortalButton({ variant = 'outline' }: { variant?: 'outline' | 'default' }) {
  const { t } = useTranslation()
  const [opening, setOpening] = useState(false)
  return (
    <Button
      variant={variant}
      size="sm"
      disabled={opening}
      data-testid="billing-portal"
      onClick={() => {
        setOpening(true)
        openBillingPortal({ onFinish: () => setOpening(false) })
      }}
    >
      {opening ? (
        <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />
      ) : (
        <ExternalLinkIcon aria-hidden className="size-4" />
      )}
      {t('stripeBilling.subscription.portal')}
    </Button>
  )
}

/** The past-due alert (its text begins 'Last payment failed'). */
export function PastDueAlert({ billing }: { billing: BillingTabDto }) {
  const { t } = useTranslation()
  if (!billing.isPastDue) return null
  return (
    <div
      role="alert"
      data-testid="past-due-alert"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm"
    >
      <AlertTriangleIcon aria-hidden className="size-4 shrink-0 text-destructive" />
      <span className="min-w-0 flex-1">{t('stripeBilling.subscription.pastDue')}</span>
      {billing.canManage && billing.hasCustomer && <PortalButton variant="default" />}
    </div>
  )
}

/** The workspace's subscription: plan, period, status, renewal or cancel date, portal. */
export function SubscriptionSection({ billing }: { billing: BillingTabDto }) {
  const { t } = useTranslation()
  const subscription = billing.subscription
  return (
    <SettingsSection title={t('stripeBilling.subscription.title')} testId="billing-subscription">
      <PastDueAlert billing={billing} />
      {subscription ? (
        <div className="grid gap-1 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">
              {t(
                subscription.period === 'year'
                  ? 'stripeBilling.subscription.yearly'
                  : 'stripeBilling.subscription.monthly',
                { plan: subscription.plan }
              )}
            </span>
            <Badge
              variant={
                subscription.status === 'active' || subscription.status === 'trialing'
                  ? 'success'
                  : 'destructive'
              }
              data-testid="subscription-status"
            >
              {t(`stripeBilling.status.${subscription.status}`, {
                defaultValue: subscription.status,
              })}
            </Badge>
          </div>
          {subscription.cancelAt ? (
            <p className="text-muted-foreground" data-testid="subscription-cancel-at">
              {t('stripeBilling.subscription.cancelsOn', {
                date: formatDate(subscription.cancelAt),
              })}
            </p>
          ) : subscription.currentPeriodEnd ? (
            <p className="text-muted-foreground">
              {t('stripeBilling.subscription.renewsOn', {
                date: formatDate(subscription.currentPeriodEnd),
              })}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t('stripeBilling.subscription.none')}</p>
      )}
      {billing.canManage && billing.hasCustomer && !billing.isPastDue && (
        <div>
          <PortalButton />
        </div>
      )}
    </SettingsSection>
  )
}

/** This month's chats against the plan's limit, with the warning near it. */
export function ChatUsageSection({ billing }: { billing: BillingTabDto }) {
  const { t } = useTranslation()
  const { used, limit, nearingLimit, reached } = billing.chats
  const unlimited = limit < 0
  const percent = unlimited || limit === 0 ? 0 : Math.min(100, Math.round((used / limit) * 100))
  return (
    <SettingsSection title={t('stripeBilling.usage.title')} testId="chat-usage">
      <p className="text-sm" data-testid="chat-usage-count">
        {unlimited
          ? t('stripeBilling.usage.unlimited', { used: formatNumber(used) })
          : t('stripeBilling.usage.count', {
              used: formatNumber(used),
              limit: formatNumber(limit),
            })}
      </p>
      {!unlimited && (
        <div
          role="progressbar"
          aria-label={t('stripeBilling.usage.title')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn(
              'h-full rounded-full',
              reached ? 'bg-destructive' : nearingLimit ? 'bg-warning' : 'bg-primary'
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      {(nearingLimit || reached) && (
        <p
          role="alert"
          data-testid="chat-limit-warning"
          className={cn('text-sm font-medium', reached ? 'text-destructive' : 'text-warning')}
        >
          {reached
            ? t('stripeBilling.usage.reached')
            : t('stripeBilling.usage.nearing', { percent })}
        </p>
      )}
    </SettingsSection>
  )
}

/** The invoices list, from Stripe (a deferred prop: the tab opens first). */
export function InvoicesSection() {
  const { t } = useTranslation()
  return (
    <SettingsSection title={t('stripeBilling.invoices.title')} testId="billing-invoices">
      <Deferred
        data="invoices"
        fallback={
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">{t('stripeBilling.invoices.loading')}</span>
            <Skeleton className="h-6" />
            <Skeleton className="h-6" />
          </div>
        }
      >
        <InvoicesList />
      </Deferred>
    </SettingsSection>
  )
}

function InvoicesList() {
  const { t } = useTranslation()
  const { invoices } = usePageProps<{
    invoices?: { items: InvoiceDto[]; error: string | null }
  }>()
  if (!invoices) return null
  if (invoices.error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {t('stripeBilling.invoices.error')}
      </p>
    )
  }
  if (invoices.items.length === 0) {
    return <EmptyState title={t('stripeBilling.invoices.none')} />
  }
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full min-w-[480px] text-sm" data-testid="invoices-table">
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('stripeBilling.invoices.date')}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('stripeBilling.invoices.number')}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('stripeBilling.invoices.amount')}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('stripeBilling.invoices.status')}
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">{t('stripeBilling.invoices.links')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.items.map((invoice) => (
            <tr key={invoice.id} className="border-b last:border-b-0">
              <td className="py-2 pr-3">{formatDate(invoice.paidAt ?? invoice.createdAt)}</td>
              <td className="py-2 pr-3">{invoice.number ?? '—'}</td>
              <td className="py-2 pr-3 tabular-nums">
                {formatPrice(invoice.subtotal, invoice.currency.toUpperCase())}
              </td>
              <td className="py-2 pr-3">
                {t(`stripeBilling.invoiceStatus.${invoice.status}`, {
                  defaultValue: invoice.status ?? '—',
                })}
              </td>
              <td className="py-2 text-right whitespace-nowrap">
                {invoice.hostedUrl && (
                  <a
                    href={invoice.hostedUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="underline underline-offset-4"
                  >
                    {t('stripeBilling.invoices.view')}
                  </a>
                )}
                {invoice.pdfUrl && (
                  <a
                    href={invoice.pdfUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="ml-3 underline underline-offset-4"
                  >
                    PDF
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
