import { memo } from 'react'
import { Handle, Position, type NodeProps } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { PlayIcon, TimerOffIcon, TrendingDownIcon } from 'lucide-react'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { formatNumber } from '~/lib/format'
import { cn } from '~/lib/utils'
import { formatPercent } from './format_percent'

export interface AnalyticsBlock {
  id: string
  type: string
  name: string
  summary: string
  dropOff: { answered: number; dropped: number; dropRate: number; timedOut: number } | null
}

export interface AnalyticsGroupData extends Record<string, unknown> {
  title: string
  blocks: AnalyticsBlock[]
}

const handleClass = '!size-2.5 !border-2 !border-background !bg-muted-foreground'

const DropOffBadge = memo(function DropOffBadgeView({
  blockId,
  dropOff,
}: {
  blockId: string
  dropOff: NonNullable<AnalyticsBlock['dropOff']>
}) {
  const { t } = useTranslation()
  const severe = dropOff.dropRate >= 0.5
  return (
    <span
      data-testid="drop-off-badge"
      data-block-id={blockId}
      title={t('results.analytics.answered', { answered: formatNumber(dropOff.answered) })}
      className={cn(
        'inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium',
        dropOff.dropped === 0
          ? 'bg-muted text-muted-foreground'
          : severe
            ? 'bg-destructive/15 text-destructive'
            : 'bg-amber-500/15 text-amber-700 dark:text-amber-400'
      )}
    >
      <TrendingDownIcon aria-hidden className="size-3" />
      {t('results.analytics.dropped', {
        dropped: formatNumber(dropOff.dropped),
        rate: formatPercent(dropOff.dropRate),
      })}
    </span>
  )
})

/** Visitors who let the question's reply timeout pass (they took its "No reply" path). */
function TimedOutBadge({ blockId, timedOut }: { blockId: string; timedOut: number }) {
  const { t } = useTranslation()
  return (
    <span
      data-testid="timed-out-badge"
      data-block-id={blockId}
      className="inline-flex items-center gap-1 rounded-md bg-sky-500/15 px-1.5 py-0.5 text-xs font-medium text-sky-700 dark:text-sky-400"
    >
      <TimerOffIcon aria-hidden className="size-3" />
      {t('results.analytics.timedOut', { timedOut: formatNumber(timedOut) })}
    </span>
  )
}

/** A group of the flow, read-only: its blocks, and the drop-off of each input block. */
export const AnalyticsGroupNode = memo(function AnalyticsGroupNodeView({ data }: NodeProps) {
  const { title, blocks } = data as AnalyticsGroupData
  return (
    <div
      data-testid="analytics-group"
      className="w-72 rounded-xl border bg-card p-2 text-card-foreground shadow-sm"
    >
      <Handle
        type="target"
        position={Position.Left}
        className={handleClass}
        isConnectable={false}
      />
      <p className="truncate px-1 pb-1.5 text-sm font-semibold">{title}</p>
      <ul className="space-y-1">
        {blocks.map((block) => (
          <li
            key={block.id}
            className={cn(
              'rounded-lg border bg-background px-2 py-1.5 text-sm',
              block.dropOff && 'border-primary/30'
            )}
          >
            <div className="flex items-center gap-2">
              <PluginIcon id={block.type} className="size-4 shrink-0" />
              <span className="truncate">{block.summary || block.name}</span>
            </div>
            {block.dropOff && (
              <div className="mt-1 flex flex-wrap gap-1">
                <DropOffBadge blockId={block.id} dropOff={block.dropOff} />
                {block.dropOff.timedOut > 0 && (
                  <TimedOutBadge blockId={block.id} timedOut={block.dropOff.timedOut} />
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
      <Handle
        type="source"
        position={Position.Right}
        className={handleClass}
        isConnectable={false}
      />
    </div>
  )
})

export const AnalyticsStartNode = memo(function AnalyticsStartNodeView() {
  const { t } = useTranslation()
  return (
    <div className="flex w-40 items-center gap-2 rounded-xl border bg-card px-3 py-2.5 text-sm font-semibold shadow-sm">
      <PlayIcon aria-hidden className="size-4 text-primary" />
      {t('editor.start')}
      <Handle
        type="source"
        position={Position.Right}
        className={handleClass}
        isConnectable={false}
      />
    </div>
  )
})
