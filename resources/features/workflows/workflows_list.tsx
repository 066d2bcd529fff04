import { useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { FileUpIcon, PlusIcon, SearchIcon, SearchXIcon, WorkflowIcon } from 'lucide-react'
import { toast } from 'sonner'
import type { WorkflowListPageProps, WorkflowSummaryDto } from '#shared/workflow/dto'
import { PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { PlanLimitGate, usePlanLimit } from '~/features/plans/plan_limit'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { usePageProps } from '~/hooks/use_shared_props'
import { useDebouncedCallback } from '~/hooks/use_debounced_callback'
import { visitSucceeded } from '~/features/bots/types'
import { ImportWorkflowDialog } from './import_workflow_dialog'
import { ImportN8nDialog } from './import_n8n_dialog'
import { useWorkflowActivation } from './use_workflow_activation'
import { WorkflowRow, WorkflowRowSkeleton, type WorkflowRowActions } from './workflow_row'

const VISIT = { preserveScroll: true, preserveState: true } as const

/** Workflows hidden at once while their archive or deletion is on its way (back on failure). */
function usePendingRemovals() {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const hide = (id: string) => setPending((set) => new Set(set).add(id))
  const show = (id: string) =>
    setPending((set) => {
      const next = new Set(set)
      next.delete(id)
      return next
    })
  return { pending, hide, show }
}

/**
 * The workflows of the current workspace: search, create, import, and per workflow its
 * status, active switch, last run and actions.
 */
export function WorkflowsList(props: Partial<WorkflowListPageProps>) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  const [query, setQuery] = useState(props.q ?? '')
  const [searching, setSearching] = useState(false)
  const [creating, setCreating] = useState(false)
  const [importing, setImporting] = useState(false)
  const [importingN8n, setImportingN8n] = useState(false)
  const { pending, hide, show } = usePendingRemovals()
  const activation = useWorkflowActivation()

  const loaded = props.workflows !== undefined
  const workflows = (props.workflows ?? []).filter((workflow) => !pending.has(workflow.id))
  const readOnly = !currentWorkspace || currentWorkspace.role === 'GUEST'
  const searched = (props.q ?? '').trim()

  const search = useDebouncedCallback((q: string) => {
    router.get('/workflows', q.trim() ? { q: q.trim() } : {}, {
      ...VISIT,
      replace: true,
      only: ['workflows', 'q'],
      onStart: () => setSearching(true),
      onFinish: () => setSearching(false),
    })
  }, 300)

  function create() {
    setCreating(true)
    router.post(
      '/workflows',
      { name: t('workflowList.create.defaultName') },
      { onFinish: () => setCreating(false) }
    )
  }

  const actions: WorkflowRowActions = {
    setActive: activation.setActive,
    duplicate: (workflow) => router.post(`/workflows/${workflow.id}/duplicate`, {}, VISIT),
    archive: (workflow: WorkflowSummaryDto) => {
      hide(workflow.id)
      router.post(
        `/workflows/${workflow.id}/archive`,
        {},
        {
          ...VISIT,
          onSuccess: (page) =>
            visitSucceeded(page) &&
            toast.success(t('workflowList.archive.done', { name: workflow.name }), {
              action: {
                label: t('workflowList.archive.undo'),
                onClick: () =>
                  router.post(`/workflows/${workflow.id}/archive`, { archived: false }, VISIT),
              },
            }),
          onFinish: () => show(workflow.id),
        }
      )
    },
    remove: (workflow) => {
      hide(workflow.id)
      router.delete(`/workflows/${workflow.id}`, { ...VISIT, onFinish: () => show(workflow.id) })
    },
  }

  // An import adds a workflow too: at the limit both wait for a plan with room.
  const atLimit = usePlanLimit('workflowCreation') !== null
  const createButton = (
    <PlanLimitGate
      limitKey="workflowCreation"
      label={t('workflowList.create.button')}
      testId="create-workflow"
    >
      <Button
        size="sm"
        data-testid="create-workflow"
        data-tour="workflows-create"
        onClick={create}
        disabled={creating}
      >
        <PlusIcon aria-hidden />
        {creating ? t('common.creating') : t('workflowList.create.button')}
      </Button>
    </PlanLimitGate>
  )
  const importButton = (
    <Button
      size="sm"
      variant="outline"
      data-testid="import-workflow"
      disabled={atLimit}
      onClick={() => setImporting(true)}
    >
      <FileUpIcon aria-hidden />
      {t('workflowList.import.button')}
    </Button>
  )
  const importN8nButton = (
    <Button
      size="sm"
      variant="outline"
      data-testid="import-n8n"
      disabled={atLimit}
      onClick={() => setImportingN8n(true)}
    >
      <FileUpIcon aria-hidden />
      {t('workflowList.n8n.button')}
    </Button>
  )

  const showSkeleton = !loaded || searching
  const isEmpty = loaded && workflows.length === 0

  return (
    <>
      <PageHeader
        title={t('workflows.title')}
        description={readOnly ? t('workflowList.readOnly') : t('workflows.description')}
        actions={
          !readOnly && (
            <div className="flex flex-wrap items-start gap-2">
              {importButton}
              {importN8nButton}
              {createButton}
            </div>
          )
        }
      />
      <div className="grid gap-4 p-6">
        {(workflows.length > 0 || searched || query) && (
          <div className="relative max-w-sm">
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              type="search"
              value={query}
              onChange={(event) => {
                setQuery(event.target.value)
                search(event.target.value)
              }}
              placeholder={t('workflowList.search.placeholder')}
              aria-label={t('workflowList.search.label')}
              className="pl-8"
              data-testid="workflow-search"
            />
          </div>
        )}
        {isEmpty && !showSkeleton ? (
          searched ? (
            <EmptyState
              icon={SearchXIcon}
              title={t('workflowList.search.emptyTitle', { q: searched })}
              description={t('workflowList.search.emptyDescription')}
              testId="workflows-no-match"
            >
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setQuery('')
                  search('')
                }}
              >
                {t('workflowList.search.clear')}
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              icon={WorkflowIcon}
              title={t('workflowList.empty.title')}
              description={
                readOnly
                  ? t('workflowList.empty.readOnly')
                  : t('workflowList.empty.description', { workspace: currentWorkspace?.name ?? '' })
              }
              testId="workflows-empty"
            >
              {!readOnly && (
                <div className="flex flex-wrap justify-center gap-2">
                  {importButton}
                  {importN8nButton}
                  {createButton}
                </div>
              )}
            </EmptyState>
          )
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full table-fixed text-left" data-testid="workflow-table">
              <caption className="sr-only">{t('workflows.title')}</caption>
              <thead className="border-b bg-muted/40 text-xs font-medium text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 pl-4 font-medium">
                    {t('workflowList.columns.name')}
                  </th>
                  <th scope="col" className="w-32 px-3 py-2 font-medium">
                    {t('workflowList.columns.status')}
                  </th>
                  <th scope="col" className="w-20 px-3 py-2 font-medium">
                    {t('workflowList.columns.active')}
                  </th>
                  <th scope="col" className="hidden w-32 px-3 py-2 font-medium md:table-cell">
                    {t('workflowList.columns.lastRun')}
                  </th>
                  <th scope="col" className="hidden w-40 px-3 py-2 font-medium sm:table-cell">
                    {t('workflowList.columns.updated')}
                  </th>
                  <th scope="col" className="w-16 py-2 pr-4 pl-3">
                    <span className="sr-only">{t('workflowList.columns.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody aria-busy={showSkeleton || undefined}>
                {showSkeleton
                  ? Array.from({ length: 4 }, (_, index) => <WorkflowRowSkeleton key={index} />)
                  : workflows.map((workflow) => (
                      <WorkflowRow
                        key={workflow.id}
                        workflow={workflow}
                        active={activation.isActive(workflow)}
                        switching={activation.isPending(workflow)}
                        readOnly={readOnly}
                        actions={actions}
                      />
                    ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      {!readOnly && <ImportWorkflowDialog open={importing} onOpenChange={setImporting} />}
      {!readOnly && currentWorkspace && (
        <ImportN8nDialog
          open={importingN8n}
          onOpenChange={setImportingN8n}
          workspaceId={currentWorkspace.id}
        />
      )}
    </>
  )
}
