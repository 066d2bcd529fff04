import { memo, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  type Edge as FlowEdge,
  type Node as FlowNode,
  type NodeTypes,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import type { ResultsAnalyticsDto } from '#shared/results/types'
import { Skeleton } from '~/components/ui/skeleton'
import { Button } from '~/components/ui/button'
import { EmptyState } from '~/components/empty_state'
import { blockSummary } from '~/features/bot_editor/block_summary'
import { clientPlugin } from '~/lib/plugin_registry'
import { formatNumber } from '~/lib/format'
import { fetchResultsAnalytics } from './results_api'
import { formatPercent } from './format_percent'
import {
  AnalyticsGroupNode,
  AnalyticsStartNode,
  type AnalyticsGroupData,
} from './analytics_group_node'

// Built once: a new object each render would remount every node.
const nodeTypes: NodeTypes = {
  analyticsGroup: AnalyticsGroupNode,
  analyticsStart: AnalyticsStartNode,
}

const StatCard = memo(function StatCardView({
  testId,
  label,
  value,
  hint,
}: {
  testId: string
  label: string
  value: string
  hint?: string
}) {
  return (
    <div data-testid={testId} className="rounded-lg border bg-card px-4 py-3 shadow-xs">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p data-testid={`${testId}-value`} className="text-2xl font-semibold tabular-nums">
        {value}
      </p>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  )
})

/** Groups as read-only nodes (blocks listed, drop-off badges on inputs), edges between groups. */
function useFlow(analytics: ResultsAnalyticsDto) {
  return useMemo(() => {
    const { graph, dropOffs } = analytics
    const byBlock = new Map(dropOffs.map((d) => [d.blockId, d]))
    const groupOfBlock = new Map<string, string>()
    const nodes: FlowNode[] = graph.events
      .filter((event) => event.type === 'start')
      .map((event) => ({
        id: event.id,
        type: 'analyticsStart',
        position: event.graphCoordinates,
        data: {},
      }))
    for (const group of graph.groups) {
      for (const block of group.blocks) groupOfBlock.set(block.id, group.id)
      const data: AnalyticsGroupData = {
        title: group.title,
        blocks: group.blocks.map((block) => ({
          id: block.id,
          type: block.type,
          name: clientPlugin(block.type)?.name ?? block.type,
          summary: blockSummary(block, graph.variables),
          dropOff: byBlock.get(block.id) ?? null,
        })),
      }
      nodes.push({ id: group.id, type: 'analyticsGroup', position: group.graphCoordinates, data })
    }
    const seen = new Set<string>()
    const edges: FlowEdge[] = []
    for (const edge of graph.edges) {
      const from = edge.from as { eventId?: string; blockId?: string }
      const source = from.eventId ?? (from.blockId ? groupOfBlock.get(from.blockId) : undefined)
      const target = edge.to.groupId
      if (!source || !target || source === target) continue
      const key = `${source}->${target}`
      if (seen.has(key)) continue
      seen.add(key)
      edges.push({ id: key, source, target })
    }
    return { nodes, edges }
  }, [analytics])
}

const AnalyticsFlow = memo(function AnalyticsFlowView({
  analytics,
}: {
  analytics: ResultsAnalyticsDto
}) {
  const { t } = useTranslation()
  const { nodes, edges } = useFlow(analytics)
  return (
    <div
      data-testid="analytics-flow"
      aria-label={t('results.analytics.flowLabel')}
      role="figure"
      className="min-h-0 flex-1"
    >
      <ReactFlowProvider>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          deleteKeyCode={null}
          minZoom={0.1}
          maxZoom={2}
          fitView
          fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  )
})

/** Views, starts and completion rate, then the flow with the drop-off of each input. */
export function AnalyticsView({ botId }: { botId: string }) {
  const { t } = useTranslation()
  const [analytics, setAnalytics] = useState<ResultsAnalyticsDto | null>(null)
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    setFailed(false)
    fetchResultsAnalytics(botId, controller.signal)
      .then(setAnalytics)
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true)
      })
    return () => controller.abort()
  }, [botId, attempt])

  if (failed) {
    return (
      <div className="p-6">
        <EmptyState title={t('results.error.title')} testId="analytics-error">
          <Button variant="outline" onClick={() => setAttempt((n) => n + 1)}>
            {t('results.error.retry')}
          </Button>
        </EmptyState>
      </div>
    )
  }
  if (!analytics) {
    return (
      <div
        data-testid="analytics-loading"
        aria-busy
        className="flex min-h-0 flex-1 flex-col gap-4 p-4"
      >
        <div className="grid grid-cols-3 gap-3">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} className="h-20" />
          ))}
        </div>
        <Skeleton className="min-h-0 flex-1" />
      </div>
    )
  }
  const { totalViews, totalStarts, totalCompleted } = analytics.stats
  const rate = totalStarts > 0 ? Math.min(1, totalCompleted / totalStarts) : 0
  return (
    <div data-testid="analytics-view" className="flex min-h-0 flex-1 flex-col">
      <div className="grid shrink-0 grid-cols-1 gap-3 border-b p-4 sm:grid-cols-3">
        <StatCard
          testId="analytics-views"
          label={t('results.analytics.views')}
          value={formatNumber(totalViews)}
        />
        <StatCard
          testId="analytics-starts"
          label={t('results.analytics.starts')}
          value={formatNumber(totalStarts)}
        />
        <StatCard
          testId="analytics-completion"
          label={t('results.analytics.completionRate')}
          value={formatPercent(rate)}
          hint={t('results.analytics.completed', { completed: formatNumber(totalCompleted) })}
        />
      </div>
      {totalViews === 0 ? (
        <div className="p-6">
          <EmptyState testId="analytics-empty" title={t('results.analytics.empty')} />
        </div>
      ) : analytics.inputBlockIds.length === 0 ? (
        <div className="p-6">
          <EmptyState testId="analytics-no-inputs" title={t('results.analytics.noInputs')} />
        </div>
      ) : (
        <AnalyticsFlow analytics={analytics} />
      )}
    </div>
  )
}
