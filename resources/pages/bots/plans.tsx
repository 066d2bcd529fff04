import { Head, Link } from '@inertiajs/react'
import { InfoIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PlanDefinition } from '#shared/plans'
import type { BillingTabDto, PricingCardDto } from '#shared/billing'
import { ChatTiersTable, PricingCards, StripeReturnNotice } from '~/features/billing/pricing'
import { ChatUsageSection, PastDueAlert } from '~/features/billing/subscription'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { Badge } from '~/components/ui/badge'
import { usePageProps } from '~/hooks/use_shared_props'
import { cn } from '~/lib/utils'
import { formatPlanDuration, formatPrice } from '~/lib/format'
import { FEATURE_KEYS, FeatureMark, LIMIT_KEYS, useLimitText } from '~/features/plans/plan_values'

export default function Plans({
  plans,
  billingEnabled,
  billingMissing = [],
  pricing = [],
  billing = null,
}: {
  plans: PlanDefinition[]
  billingEnabled: boolean
  billingMissing?: string[]
  pricing?: PricingCardDto[]
  billing?: BillingTabDto | null
}) {
  const { t } = useTranslation()
  const { currentWorkspace, user } = usePageProps()
  const limitText = useLimitText()
  const currentPlan = currentWorkspace?.plan

  return (
    <AppLayout>
      <Head title={t('plans.title')} />
      <PageHeader title={t('plans.title')} description={t('plans.description')} />
      <div className="grid gap-4 p-6">
        {!billingEnabled && (
          <div
            role="note"
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-muted/30 px-4 py-3 text-sm"
            data-testid="billing-off"
          >
            <InfoIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            <span className="font-medium">{t('plansBilling.offTitle')}</span>
            <span className="text-muted-foreground">
              {user?.isAdmin ? t('plansBilling.offAdmin') : t('plansBilling.offMember')}
            </span>
            {user?.isAdmin && (
              <Link href="/admin/workspaces" className="font-medium underline underline-offset-4">
                {t('planAdmin.title')}
              </Link>
            )}
            {billingMissing.length > 0 && (
              <span className="w-full text-xs text-muted-foreground" data-testid="billing-missing">
                {t('stripeBilling.missing', { names: billingMissing.join(', ') })}
              </span>
            )}
          </div>
        )}
        {billingEnabled && (
          <>
            <StripeReturnNotice billing={billing} />
            {billing && <PastDueAlert billing={billing} />}
            {pricing.length > 0 && <PricingCards cards={pricing} billing={billing} />}
            {billing && <ChatUsageSection billing={billing} />}
            {pricing.length > 0 && <ChatTiersTable plans={plans} cards={pricing} />}
          </>
        )}
        {/* relative: the table's screen-reader texts (absolutely placed) scroll with it
            instead of widening the page. */}
        <div className="relative overflow-x-auto rounded-lg border">
          <table className="w-full min-w-[720px] border-collapse text-sm" data-testid="plans-table">
            <caption className="sr-only">{t('plans.caption')}</caption>
            <thead>
              <tr className="border-b bg-muted/40">
                <th
                  scope="col"
                  className="w-56 px-4 py-3 text-left font-medium text-muted-foreground"
                >
                  {t('plans.plan')}
                </th>
                {plans.map((plan) => {
                  const current = plan.name === currentPlan
                  return (
                    <th
                      key={plan.name}
                      scope="col"
                      data-testid={`plan-${plan.name}`}
                      data-current={current || undefined}
                      aria-current={current ? 'true' : undefined}
                      className={cn('px-4 py-3 text-left align-top', current && 'bg-primary/10')}
                    >
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="text-base font-semibold">{plan.label}</span>
                        {current && (
                          <Badge data-testid="current-plan-badge">{t('plans.current')}</Badge>
                        )}
                      </div>
                      <div className="mt-1 font-normal">
                        <span className="text-lg font-semibold">
                          {formatPrice(plan.priceMonthly)}
                        </span>{' '}
                        <span className="text-xs text-muted-foreground">{t('plans.perMonth')}</span>
                      </div>
                      <div className="text-xs font-normal text-muted-foreground">
                        {t('plans.duration', { duration: formatPlanDuration(plan.duration) })}
                      </div>
                    </th>
                  )
                })}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th
                  scope="rowgroup"
                  colSpan={plans.length + 1}
                  className="bg-muted/20 px-4 pt-4 pb-2 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                >
                  {t('plans.limitsHeading')}
                </th>
              </tr>
              {LIMIT_KEYS.map((key) => (
                <tr key={key} className="border-b last:border-b-0">
                  <th scope="row" className="px-4 py-2 text-left font-normal">
                    {t(`plans.limits.${key}`)}
                  </th>
                  {plans.map((plan) => (
                    <td
                      key={plan.name}
                      className={cn(
                        'px-4 py-2 tabular-nums',
                        plan.name === currentPlan && 'bg-primary/5'
                      )}
                    >
                      {limitText(plan.limits?.[key])}
                    </td>
                  ))}
                </tr>
              ))}
              <tr>
                <th
                  scope="rowgroup"
                  colSpan={plans.length + 1}
                  className="bg-muted/20 px-4 pt-4 pb-2 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                >
                  {t('plans.featuresHeading')}
                </th>
              </tr>
              {FEATURE_KEYS.map((key) => (
                <tr key={key} className="border-b last:border-b-0">
                  <th scope="row" className="px-4 py-2 text-left font-normal">
                    {t(`plans.features.${key}`)}
                  </th>
                  {plans.map((plan) => (
                    <td
                      key={plan.name}
                      className={cn('px-4 py-2', plan.name === currentPlan && 'bg-primary/5')}
                    >
                      <FeatureMark enabled={!!plan.features?.[key]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </AppLayout>
  )
}
