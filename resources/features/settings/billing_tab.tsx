import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { PlanDefinition } from '#shared/plans'
import type { BillingTabDto } from '#shared/billing'
import {
  ChatUsageSection,
  InvoicesSection,
  SubscriptionSection,
} from '~/features/billing/subscription'
import { usePageProps } from '~/hooks/use_shared_props'
import { Badge } from '~/components/ui/badge'
import { buttonVariants } from '~/components/ui/button'
import { EmptyState } from '~/components/empty_state'
import { formatDate, formatPrice } from '~/lib/format'
import { FEATURE_KEYS, FeatureMark, LIMIT_KEYS, useLimitText } from '~/features/plans/plan_values'
import { SettingsSection } from './settings_section'
import { AiUsageSection } from './ai_usage_section'

export function BillingTab({
  plan,
  planExpired,
  billing,
}: {
  plan?: PlanDefinition
  planExpired?: boolean
  billing?: BillingTabDto
}) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  const limitText = useLimitText()

  if (!plan || !currentWorkspace) {
    // AI credits are the user's own: shown even without a workspace.
    return (
      <div className="grid gap-6">
        <EmptyState
          title={t('settings.workspace.noneTitle')}
          description={t('settings.workspace.noneDescription')}
        />
        <AiUsageSection />
      </div>
    )
  }

  // The workspace's plan applies to everyone in it, its creator too (planFor, docs/security.md).
  const remainingDays = currentWorkspace.remainingDays
  const endsAt = currentWorkspace.planEndsAt

  return (
    <div className="grid gap-6">
      <SettingsSection title={t('settings.billing.currentPlan')} testId="billing-plan">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-2xl font-semibold" data-testid="billing-plan-label">
            {plan.label}
          </span>
          {planExpired ? (
            <Badge variant="destructive" data-testid="plan-expired">
              {t('settings.billing.expired')}
            </Badge>
          ) : (
            <Badge variant="success">{t('settings.billing.active')}</Badge>
          )}
          <span className="text-sm text-muted-foreground">
            {formatPrice(plan.priceMonthly)} {t('plans.perMonth')}
          </span>
        </div>
        <p className="text-sm text-muted-foreground" data-testid="remaining-days">
          {remainingDays === null
            ? t('settings.billing.noEndDate')
            : t('settings.billing.remainingDays', {
                count: remainingDays,
                date: formatDate(endsAt),
              })}
        </p>
        <p className="text-xs text-muted-foreground">{t('settings.billing.memberNote')}</p>
        <div>
          <Link
            href="/bots/plans"
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            data-testid="billing-view-plans"
          >
            {t('settings.billing.comparePlans')}
          </Link>
        </div>
      </SettingsSection>

      {billing?.enabled && <SubscriptionSection billing={billing} />}
      {billing && <ChatUsageSection billing={billing} />}
      {billing?.enabled && billing.canManage && <InvoicesSection />}

      <AiUsageSection />

      <SettingsSection title={t('settings.billing.limitsTitle')}>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {LIMIT_KEYS.map((key) => (
            <div key={key} className="flex items-center justify-between gap-3 border-b py-1.5">
              <dt className="text-muted-foreground">{t(`plans.limits.${key}`)}</dt>
              <dd className="font-medium tabular-nums" data-testid={`limit-${key}`}>
                {limitText(plan.limits?.[key])}
              </dd>
            </div>
          ))}
        </dl>
      </SettingsSection>

      <SettingsSection title={t('plans.featuresHeading')}>
        <ul className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {FEATURE_KEYS.map((key) => (
            <li key={key} className="flex items-center gap-2">
              <FeatureMark enabled={!!plan.features?.[key]} />
              <span>{t(`plans.features.${key}`)}</span>
            </li>
          ))}
        </ul>
      </SettingsSection>
    </div>
  )
}
