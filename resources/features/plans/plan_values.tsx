import { useTranslation } from 'react-i18next'
import { CheckIcon, XIcon } from 'lucide-react'
import type { PlanFeatures, PlanLimits } from '#shared/plans'
import { UNLIMITED } from '#shared/plans'
import { formatNumber } from '~/lib/format'

export const LIMIT_KEYS: (keyof PlanLimits)[] = [
  'botCreation',
  'botPublish',
  'conversations',
  'workflowCreation',
  'workflowActivation',
  'vectorLimit',
  'multipleUser',
  'multipleWorkspace',
  'aiCalls',
  'userCopilotLimit',
]

export const FEATURE_KEYS: (keyof PlanFeatures)[] = [
  'brandingRemoval',
  'workspaceWithFolder',
  'userWiseFolderShare',
  'fileUpload',
  'realTimeDataUpdate',
  'liveChatComponent',
  'customDomain',
  'inDepthAnalytics',
  'whatsApp',
  'customIntegration',
  'flowBuildingService',
  'hipaaGdprCompliance',
]

export function useLimitText() {
  const { t } = useTranslation()
  return (value: number | undefined | null) =>
    value === UNLIMITED
      ? t('plans.unlimited')
      : value === undefined || value === null
        ? '—'
        : formatNumber(value)
}

export function FeatureMark({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation()
  return enabled ? (
    <span className="inline-flex items-center text-success" data-value="yes">
      <CheckIcon aria-hidden className="size-4" />
      <span className="sr-only">{t('plans.included')}</span>
    </span>
  ) : (
    <span className="inline-flex items-center text-muted-foreground/60" data-value="no">
      <XIcon aria-hidden className="size-4" />
      <span className="sr-only">{t('plans.notIncluded')}</span>
    </span>
  )
}
