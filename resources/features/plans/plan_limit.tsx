import { useId, type ReactElement, type ReactNode } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { LockIcon } from 'lucide-react'
import type { CountedLimit } from '#shared/plan_admin'
import { Button } from '~/components/ui/button'
import { usePageProps } from '~/hooks/use_shared_props'
import { cn } from '~/lib/utils'

/**
 * Why `key` blocks a new bot, workflow, workspace or invitation in the current workspace,
 * or null while there is room (docs/security.md, "Plan limits"): actions at their limit are
 * disabled with this reason before any form is filled in. The server still checks.
 */
export function usePlanLimit(key: CountedLimit): string | null {
  const { t } = useTranslation()
  const { planUsage } = usePageProps()
  if (!planUsage) return null
  if (key === 'multipleWorkspace' && planUsage.expired) return t('planLimits.expired')
  const { used, limit } = planUsage.usage[key]
  if (limit === -1 || used < limit) return null
  return t(`planLimits.${key}`, { limit })
}

/** The reason an action is unavailable and the way to more: the Plans page. */
export function PlanLimitReason({
  id,
  reason,
  limitKey,
  className,
}: {
  id?: string
  reason: string
  limitKey: CountedLimit
  className?: string
}) {
  const { t } = useTranslation()
  return (
    <p
      id={id}
      className={cn('text-xs text-muted-foreground', className)}
      data-testid={`plan-limit-${limitKey}`}
    >
      {reason}{' '}
      <Link href="/bots/plans" className="font-medium text-foreground underline underline-offset-4">
        {t('planLimits.upgrade')}
      </Link>
    </p>
  )
}

/**
 * `children` (the action's button) while there is room; at the limit the same label on a
 * disabled button, described by the reason and the link to the plans.
 */
export function PlanLimitGate({
  limitKey,
  label,
  icon: Icon,
  testId,
  size = 'sm',
  className,
  children,
}: {
  limitKey: CountedLimit
  label: ReactNode
  icon?: (props: { 'aria-hidden': boolean }) => ReactElement
  testId: string
  size?: 'sm' | 'default'
  className?: string
  children: ReactNode
}) {
  const reason = usePlanLimit(limitKey)
  const id = useId()
  if (!reason) return <>{children}</>
  return (
    <div className={cn('flex max-w-72 flex-col items-end gap-1 text-right', className)}>
      <Button size={size} disabled aria-describedby={id} data-testid={testId} data-limited>
        {Icon ? <Icon aria-hidden /> : <LockIcon aria-hidden />}
        {label}
      </Button>
      <PlanLimitReason id={id} reason={reason} limitKey={limitKey} />
    </div>
  )
}
