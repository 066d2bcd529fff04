import { Deferred } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { SparklesIcon } from 'lucide-react'
import type { AiUsageSummary } from '#shared/ai_credits'
import { usePageProps } from '~/hooks/use_shared_props'
import { EmptyState } from '~/components/empty_state'
import { Skeleton } from '~/components/ui/skeleton'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { formatDateTime, formatNumber } from '~/lib/format'
import { formatCredits } from '~/features/ai_credits/format_credits'
import { SettingsSection } from './settings_section'

/**
 * Billing & Usage, AI part: the signed-in user's credits left, this month's totals and
 * their latest AI calls. The data is an Inertia deferred prop (`aiUsage`): the tab opens at
 * once with skeletons and fills in when the summary arrives.
 */
export function AiUsageSection() {
  return (
    <Deferred data="aiUsage" fallback={<AiUsageSkeleton />}>
      <AiUsageContent />
    </Deferred>
  )
}

function AiUsageSkeleton() {
  const { t } = useTranslation()
  return (
    <div className="grid gap-6" aria-busy="true" data-testid="ai-usage-loading">
      <span className="sr-only">{t('aiCredits.loading')}</span>
      <SettingsSection title={t('aiCredits.title')}>
        <Skeleton className="h-8 w-32" />
        <Skeleton className="h-4 w-2/3" />
      </SettingsSection>
      <SettingsSection title={t('aiCredits.monthTitle')}>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[0, 1, 2, 3].map((key) => (
            <Skeleton key={key} className="h-14" />
          ))}
        </div>
      </SettingsSection>
      <SettingsSection title={t('aiCredits.latestTitle')}>
        {[0, 1, 2].map((key) => (
          <Skeleton key={key} className="h-6" />
        ))}
      </SettingsSection>
    </div>
  )
}

function AiUsageContent() {
  const { t } = useTranslation()
  const { aiUsage } = usePageProps<{ aiUsage?: AiUsageSummary }>()
  if (!aiUsage) return <AiUsageSkeleton />
  const empty = Number(aiUsage.credits) <= 0
  const totals = [
    { key: 'calls', value: formatNumber(aiUsage.month.calls) },
    { key: 'inputTokens', value: formatNumber(aiUsage.month.inputTokens) },
    { key: 'outputTokens', value: formatNumber(aiUsage.month.outputTokens) },
    {
      key: 'creditsUsed',
      value: formatCredits(aiUsage.month.credits),
      exact: aiUsage.month.credits,
    },
  ]

  return (
    <div className="grid gap-6" data-testid="ai-usage">
      <SettingsSection title={t('aiCredits.title')} description={t('aiCredits.help')}>
        <div className="flex flex-wrap items-baseline gap-2">
          <Tooltip>
            <TooltipTrigger asChild>
              <span
                tabIndex={0}
                className={
                  'rounded-sm text-2xl font-semibold tabular-nums outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50' +
                  (empty ? ' text-destructive' : '')
                }
                data-testid="ai-credits-left"
                data-exact={aiUsage.credits}
                aria-label={t('aiCredits.exact', { value: aiUsage.credits })}
              >
                {formatCredits(aiUsage.credits)}
              </span>
            </TooltipTrigger>
            <TooltipContent>{t('aiCredits.exact', { value: aiUsage.credits })}</TooltipContent>
          </Tooltip>
          <span className="text-sm text-muted-foreground">{t('aiCredits.balanceLabel')}</span>
        </div>
        {empty && (
          <p className="text-sm text-destructive" role="status" data-testid="ai-credits-empty">
            {t('aiCredits.none')}
          </p>
        )}
      </SettingsSection>

      <SettingsSection
        title={t('aiCredits.monthTitle')}
        description={t('aiCredits.monthDescription', {
          date: formatDateTime(aiUsage.month.start),
        })}
      >
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="ai-usage-month">
          {totals.map((total) => (
            <div key={total.key} className="grid gap-1 rounded-md border p-3">
              <dt className="text-xs text-muted-foreground">{t(`aiCredits.${total.key}`)}</dt>
              <dd
                className="text-lg font-semibold tabular-nums"
                title={total.exact}
                data-testid={`ai-month-${total.key}`}
              >
                {total.value}
              </dd>
            </div>
          ))}
        </dl>
      </SettingsSection>

      <SettingsSection
        title={t('aiCredits.latestTitle')}
        description={t('aiCredits.latestDescription')}
      >
        {aiUsage.latest.length === 0 ? (
          <EmptyState
            icon={SparklesIcon}
            title={t('aiCredits.emptyTitle')}
            description={t('aiCredits.emptyDescription')}
            testId="ai-usage-empty"
          />
        ) : (
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-sm" data-testid="ai-usage-table">
              <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('aiCredits.columns.date')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('aiCredits.columns.source')}
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('aiCredits.columns.model')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('aiCredits.columns.inputTokens')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('aiCredits.columns.outputTokens')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t('aiCredits.columns.credits')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {aiUsage.latest.map((row) => (
                  <tr key={row.id} className="border-t" data-testid="ai-usage-row">
                    <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                    <td className="px-3 py-2">
                      {row.source ? (
                        <code className="font-mono text-xs">{row.source}</code>
                      ) : (
                        <span className="text-muted-foreground">
                          {t('aiCredits.unknownSource')}
                        </span>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      {row.model ? (
                        <code className="font-mono text-xs">{row.model}</code>
                      ) : (
                        <span className="text-muted-foreground">{t('aiCredits.noModel')}</span>
                      )}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {formatNumber(row.inputTokens)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {formatNumber(row.outputTokens)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums" title={row.credits}>
                      {formatCredits(row.credits, 6)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SettingsSection>
    </div>
  )
}
