import { useMemo } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  ArrowLeftIcon,
  FlaskConicalIcon,
  HistoryIcon,
  PencilRulerIcon,
  RefreshCwIcon,
  TriangleAlertIcon,
} from 'lucide-react'
import type {
  WorkflowRunDetailDto,
  WorkflowRunNodeDto,
  WorkflowRunSummaryDto,
  WorkflowRunsPageProps,
} from '#shared/workflow/dto'
import type { RunStatus } from '#shared/workflow/types'
import { PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { formatDateTime, formatRelativeTime } from '~/lib/format'
import { cn } from '~/lib/utils'
import { clientPlugin } from '~/lib/plugin_registry'
import { pluginText, usePluginLocales } from '~/features/workflow_editor/plugin_locales'
import { JsonView } from './json_view'
import { DataPane } from './data_views'
import { useWorkflowRuns } from './use_workflow_runs'

const STATUS_VARIANT: Record<string, 'success' | 'secondary' | 'destructive' | 'outline'> = {
  success: 'success',
  error: 'destructive',
  cancelled: 'outline',
}

function RunStatusBadge({ status }: { status: RunStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant={STATUS_VARIANT[status] ?? 'secondary'} data-status={status}>
      {t(`workflowRuns.status.${status}`)}
    </Badge>
  )
}

function TestBadge() {
  const { t } = useTranslation()
  return (
    <Badge variant="outline" data-testid="run-test-badge" className="gap-1">
      <FlaskConicalIcon className="size-3" aria-hidden />
      {t('nodeData.testRun')}
    </Badge>
  )
}

/** /workflows/{id}/runs: the runs list beside the selected run's nodes. */
export function WorkflowRunsView({ workflow, nodes, selectedRunId }: WorkflowRunsPageProps) {
  const { t } = useTranslation()
  const runs = useWorkflowRuns(workflow.id, selectedRunId)
  // Plugin names in the builder's language (plugins/<slug>/locales): never a type id.
  const language = usePluginLocales(nodes.map((node) => node.type))
  const titles = useMemo(
    () => new Map(nodes.map((node) => [node.id, node.title || nodeTypeName(node.type)])),
    // Read again once the plugins' texts of a newly chosen language are in.
    [nodes, language]
  )
  const typeNames = useMemo(
    () => new Map(nodes.map((node) => [node.type, nodeTypeName(node.type)])),
    [nodes, language]
  )

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title={t('workflowRuns.title', { name: workflow.name })}
        actions={
          <>
            {runs.live && (
              <Badge variant="outline" data-testid="runs-live">
                <span className="size-2 animate-pulse rounded-full bg-success" aria-hidden />
                {t('workflowRuns.live')}
              </Badge>
            )}
            <Button variant="outline" size="sm" onClick={() => void runs.reloadList()}>
              <RefreshCwIcon aria-hidden />
              {t('workflowRuns.refresh')}
            </Button>
            <Button variant="ghost" size="sm" asChild>
              <Link href={`/workflows/${workflow.id}`} data-testid="runs-back">
                <ArrowLeftIcon aria-hidden />
                {t('workflowRuns.back')}
              </Link>
            </Button>
          </>
        }
      />
      <div className="grid min-h-0 flex-1 gap-4 p-6 md:grid-cols-[minmax(16rem,22rem)_1fr]">
        <section aria-label={t('workflowRuns.list')} className="min-h-0">
          <RunsList
            list={runs.list}
            selectedId={runs.selectedId}
            onSelect={runs.select}
            onRetry={() => void runs.reloadList()}
          />
        </section>
        <section className="min-w-0">
          {runs.detail === null ? (
            runs.list.state === 'ready' && runs.list.data.length > 0 ? (
              <p className="text-sm text-muted-foreground">{t('workflowRuns.select')}</p>
            ) : null
          ) : runs.detail.state === 'loading' ? (
            <DetailSkeleton />
          ) : runs.detail.state === 'error' ? (
            <ErrorBox
              message={t('workflowRuns.runError')}
              onRetry={() => void runs.reloadDetail()}
            />
          ) : (
            <RunDetail
              run={runs.detail.data}
              titles={titles}
              typeNames={typeNames}
              workflowId={workflow.id}
            />
          )}
        </section>
      </div>
    </div>
  )
}

function RunsList({
  list,
  selectedId,
  onSelect,
  onRetry,
}: {
  list: ReturnType<typeof useWorkflowRuns>['list']
  selectedId: string | null
  onSelect: (id: string) => void
  onRetry: () => void
}) {
  const { t } = useTranslation()
  if (list.state === 'loading') {
    return (
      <div className="space-y-2" data-testid="runs-loading">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-14 w-full" />
        ))}
      </div>
    )
  }
  if (list.state === 'error') {
    return <ErrorBox message={t('workflowRuns.loadError')} onRetry={onRetry} />
  }
  if (list.data.length === 0) {
    return (
      <EmptyState
        icon={HistoryIcon}
        testId="runs-empty"
        title={t('workflowRuns.empty.title')}
        description={t('workflowRuns.empty.description')}
      />
    )
  }
  return (
    <ul className="space-y-1 overflow-auto" data-testid="runs-list">
      {list.data.map((run) => (
        <li key={run.id}>
          <RunRow run={run} selected={run.id === selectedId} onSelect={() => onSelect(run.id)} />
        </li>
      ))}
    </ul>
  )
}

function RunRow({
  run,
  selected,
  onSelect,
}: {
  run: WorkflowRunSummaryDto
  selected: boolean
  onSelect: () => void
}) {
  const { t } = useTranslation()
  const at = run.startedAt ?? run.createdAt
  return (
    <button
      type="button"
      data-testid="run-row"
      data-run-id={run.id}
      data-status={run.status}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      className={cn(
        'flex w-full items-center justify-between gap-2 rounded-md border px-3 py-2 text-left text-sm',
        'hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none',
        selected && 'border-primary bg-primary/5'
      )}
    >
      <span className="min-w-0">
        <span className="flex items-center gap-2 font-medium">
          {t(`workflowRuns.trigger.${run.trigger}`, { defaultValue: run.trigger })}
          {run.isTest && <TestBadge />}
        </span>
        <time
          dateTime={at ?? undefined}
          title={formatDateTime(at)}
          className="text-xs text-muted-foreground"
        >
          {formatRelativeTime(at)}
        </time>
      </span>
      <span className="flex shrink-0 flex-col items-end gap-1">
        <RunStatusBadge status={run.status} />
        {run.durationMs !== null && (
          <span className="text-xs text-muted-foreground">
            {t('workflowRuns.duration', { ms: run.durationMs })}
          </span>
        )}
      </span>
    </button>
  )
}

function RunDetail({
  run,
  titles,
  typeNames,
  workflowId,
}: {
  run: WorkflowRunDetailDto
  titles: Map<string, string>
  typeNames: Map<string, string>
  workflowId: string
}) {
  const { t } = useTranslation()
  return (
    <article className="space-y-4" data-testid="run-detail" data-run-id={run.id}>
      <header className="flex flex-wrap items-center gap-3">
        <RunStatusBadge status={run.status} />
        <span className="text-sm font-medium">
          {t(`workflowRuns.trigger.${run.trigger}`, { defaultValue: run.trigger })}
        </span>
        <span className="text-sm text-muted-foreground">
          {formatDateTime(run.startedAt ?? run.createdAt)}
        </span>
        {run.durationMs !== null && (
          <span className="text-sm text-muted-foreground">
            {t('workflowRuns.duration', { ms: run.durationMs })}
          </span>
        )}
        {run.isTest && <TestBadge />}
        <Button variant="outline" size="sm" className="ml-auto" asChild>
          {/* The editor shows this run's data in each node's panel (docs/workflows.md). */}
          <a href={`/workflows/${workflowId}?run=${run.id}`} data-testid="run-open-editor">
            <PencilRulerIcon aria-hidden />
            {t('nodeData.openInEditor')}
          </a>
        </Button>
      </header>
      {run.error && (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm text-destructive"
        >
          {run.error}
        </p>
      )}
      <div className="grid gap-3 lg:grid-cols-2">
        <div>
          <h3 className="mb-1 text-xs font-semibold text-muted-foreground">
            {t('workflowRuns.runInput')}
          </h3>
          <JsonView value={run.input} testId="run-input" />
        </div>
        <div>
          <h3 className="mb-1 text-xs font-semibold text-muted-foreground">
            {t('workflowRuns.runOutput')}
          </h3>
          <JsonView value={run.output} testId="run-output" />
        </div>
      </div>
      <section>
        <h2 className="mb-2 text-sm font-semibold">{t('workflowRuns.nodes')}</h2>
        {run.nodes.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('workflowRuns.noNodes')}</p>
        ) : (
          <ol className="space-y-2">
            {run.nodes.map((node, index) => (
              <li key={`${node.nodeId}-${index}`}>
                <NodeRecord
                  node={node}
                  title={titles.get(node.nodeId)}
                  typeName={typeNames.get(node.nodeType) ?? nodeTypeName(node.nodeType)}
                />
              </li>
            ))}
          </ol>
        )}
      </section>
    </article>
  )
}

/** A node type's name as builders know it ("HTTP request"), not its id. */
function nodeTypeName(type: string) {
  const plugin = clientPlugin(type)
  return plugin ? pluginText(type, 'name', plugin.name) : type
}

function NodeRecord({
  node,
  title,
  typeName,
}: {
  node: WorkflowRunNodeDto
  title?: string
  typeName: string
}) {
  const { t } = useTranslation()
  return (
    <details
      className="rounded-md border"
      data-testid="run-node"
      data-node-id={node.nodeId}
      data-status={node.status}
      open={node.status === 'error'}
    >
      <summary className="flex cursor-pointer items-center justify-between gap-2 px-3 py-2 text-sm">
        <span className="min-w-0 truncate">
          <span className="font-medium">{title ?? t('workflowRuns.removedNode')}</span>
          {title !== typeName && (
            <span className="ml-2 text-xs text-muted-foreground" data-testid="run-node-type">
              {typeName}
            </span>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
          {node.attempts > 1 && <span>{t('workflowRuns.attempts', { count: node.attempts })}</span>}
          {node.durationMs !== null && (
            <span>{t('workflowRuns.duration', { ms: node.durationMs })}</span>
          )}
          <Badge variant={STATUS_VARIANT[node.status] ?? 'secondary'}>
            {t(`workflowEditor.run.status.${node.status}`)}
          </Badge>
        </span>
      </summary>
      <div className="grid gap-3 border-t p-3 lg:grid-cols-2">
        {node.error && (
          <div
            role="alert"
            data-testid="run-node-error"
            className="grid gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm lg:col-span-2"
          >
            <p className="font-medium text-destructive">{node.error}</p>
            {node.errorDetails !== null && node.errorDetails !== undefined && (
              <JsonView value={node.errorDetails} testId="run-node-error-cause" />
            )}
          </div>
        )}
        <DataPane title={t('workflowRuns.input')} value={node.input} testId="node-input" />
        <DataPane title={t('workflowRuns.output')} value={node.output} testId="node-output" />
        <div className="lg:col-span-2">
          <h3 className="mb-1 text-xs font-semibold text-muted-foreground">
            {t('workflowRuns.logs')}
          </h3>
          {node.logs.length === 0 ? (
            <p className="text-xs text-muted-foreground">{t('workflowRuns.noLogs')}</p>
          ) : (
            <JsonView value={node.logs} testId="node-logs" />
          )}
        </div>
      </div>
    </details>
  )
}

function DetailSkeleton() {
  return (
    <div className="space-y-3" data-testid="run-loading">
      <Skeleton className="h-6 w-64" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-12 w-full" />
    </div>
  )
}

function ErrorBox({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation()
  return (
    <div
      role="alert"
      data-testid="runs-error"
      className="flex flex-col items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-4 text-sm"
    >
      <span className="flex items-center gap-2 font-medium text-destructive">
        <TriangleAlertIcon className="size-4" aria-hidden />
        {message}
      </span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {t('workflowRuns.retry')}
      </Button>
    </div>
  )
}
