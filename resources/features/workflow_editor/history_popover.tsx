import { useCallback, useState } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { BotIcon, EyeIcon, HistoryIcon, RotateCcwIcon, UserIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { formatDateTime, formatRelativeTime } from '~/lib/format'
import {
  createWorkflowEditorStore,
  errorDescription,
  useWorkflowEditor,
  useWorkflowEditorApi,
  WorkflowEditorContext,
} from './workflow_editor_store'
import { WorkflowCanvas } from './workflow_canvas'
import type { WorkflowHistory, WorkflowSaveResponse, WorkflowVersion } from './types'

type Load =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'loaded'; versions: WorkflowVersion[] }

/**
 * The workflow's history: each version with its name, time and author (a person or the
 * copilot), a read-only preview of its graph and, in write mode, a restore.
 */
export function HistoryPopover() {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const [open, setOpen] = useState(false)
  const [load, setLoad] = useState<Load>({ state: 'idle' })
  // Dialogs live outside the popover: taking the focus, they would close it under them.
  const [preview, setPreview] = useState<WorkflowVersion | null>(null)
  const [restoring, setRestoring] = useState<WorkflowVersion | null>(null)
  const [busy, setBusy] = useState(false)

  const fetchVersions = useCallback(async () => {
    setLoad({ state: 'loading' })
    try {
      // The list shows what the server holds: pending edits go first.
      await api.getState().save()
      const history = await jsonFetch<WorkflowHistory>(`/api/v1/workflows/${workflowId}/versions`)
      setLoad({ state: 'loaded', versions: history.versions ?? [] })
    } catch (error) {
      const message = errorDescription(error)
      setLoad({ state: 'error', message })
      showToast('error', t('workflowEditor.errors.fetchHistory'), message)
    }
  }, [api, workflowId, t])

  async function restore(version: WorkflowVersion) {
    setBusy(true)
    try {
      await api.getState().save()
      const answer = await jsonFetch<WorkflowSaveResponse>(
        `/api/v1/workflows/${workflowId}/versions/${version.id}/restore`,
        { method: 'POST' }
      )
      api.getState().replaceWithSaved(answer.workflow)
      setPreview(null)
      showToast('success', t('workflowEditor.history.restored', { name: version.versionName }))
    } catch (error) {
      showToast('error', t('workflowEditor.errors.restore'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (next) void fetchVersions()
        }}
      >
        <PopoverTrigger asChild>
          <Button
            variant="ghost"
            size="sm"
            data-testid="history-button"
            aria-label={t('workflowEditor.history.title')}
          >
            <HistoryIcon />
            <span className="hidden lg:inline">{t('workflowEditor.history.title')}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-96 p-0" data-testid="history-panel">
          <div className="border-b px-4 py-3">
            <h3 className="text-sm font-semibold">{t('workflowEditor.history.title')}</h3>
            <p className="text-xs text-muted-foreground">{t('workflowEditor.history.hint')}</p>
          </div>
          <div className="max-h-80 overflow-y-auto p-2" aria-busy={load.state === 'loading'}>
            {(load.state === 'loading' || load.state === 'idle') && (
              <div className="grid gap-2 p-2" data-testid="history-loading">
                {[0, 1, 2].map((row) => (
                  <Skeleton key={row} className="h-10 w-full" />
                ))}
              </div>
            )}
            {load.state === 'error' && (
              <div className="grid gap-2 p-2 text-sm" role="alert">
                <p className="text-destructive">{load.message}</p>
                <Button variant="outline" size="sm" onClick={() => void fetchVersions()}>
                  {t('workflowEditor.history.retry')}
                </Button>
              </div>
            )}
            {load.state === 'loaded' && load.versions.length === 0 && (
              <p className="p-3 text-sm text-muted-foreground" data-testid="history-empty">
                {t('workflowEditor.history.empty')}
              </p>
            )}
            {load.state === 'loaded' && load.versions.length > 0 && (
              <ul className="grid gap-1">
                {load.versions.map((version) => (
                  <li
                    key={version.id}
                    data-testid="history-version"
                    data-version-id={version.id}
                    className="flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted/60"
                  >
                    {version.updatedBy === 'assistant' ? (
                      <BotIcon aria-hidden className="size-4 shrink-0 text-violet-500" />
                    ) : (
                      <UserIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                    )}
                    <div className="min-w-0 flex-1">
                      <p
                        className="truncate text-sm font-medium"
                        data-testid="history-version-name"
                      >
                        {version.versionName}
                      </p>
                      <p className="truncate text-xs text-muted-foreground">
                        <time
                          dateTime={version.updatedAt}
                          title={formatDateTime(version.updatedAt)}
                        >
                          {formatRelativeTime(version.updatedAt)}
                        </time>
                        {' · '}
                        {version.updatedBy === 'assistant'
                          ? t('workflowEditor.history.byAssistant')
                          : t('workflowEditor.history.byUser')}
                      </p>
                    </div>
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      data-testid="history-preview"
                      aria-label={t('workflowEditor.history.preview', {
                        name: version.versionName,
                      })}
                      onClick={() => {
                        setOpen(false)
                        setPreview(version)
                      }}
                    >
                      <EyeIcon />
                    </Button>
                    {!readOnly && (
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        data-testid="history-restore"
                        disabled={busy}
                        aria-label={t('workflowEditor.history.restore', {
                          name: version.versionName,
                        })}
                        onClick={() => {
                          setOpen(false)
                          setRestoring(version)
                        }}
                      >
                        <RotateCcwIcon />
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </PopoverContent>
      </Popover>

      <VersionPreview
        version={preview}
        readOnly={readOnly}
        busy={busy}
        onClose={() => setPreview(null)}
        onRestore={(version) => setRestoring(version)}
      />
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(next) => {
          if (!next) setRestoring(null)
        }}
        title={t('workflowEditor.history.restoreTitle', { name: restoring?.versionName ?? '' })}
        description={t('workflowEditor.history.restoreDescription')}
        confirmLabel={t('workflowEditor.history.restoreConfirm')}
        onConfirm={() => {
          if (restoring) void restore(restoring)
        }}
      />
    </>
  )
}

/** A version's graph on a read-only canvas of its own (its own store, its own viewport). */
function VersionPreview({
  version,
  readOnly,
  busy,
  onClose,
  onRestore,
}: {
  version: WorkflowVersion | null
  readOnly: boolean
  busy: boolean
  onClose: () => void
  onRestore: (version: WorkflowVersion) => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog
      open={version !== null}
      onOpenChange={(next) => {
        if (!next) onClose()
      }}
    >
      <DialogContent className="flex h-[80dvh] flex-col sm:max-w-5xl" data-testid="version-preview">
        <DialogHeader>
          <DialogTitle>{version?.versionName}</DialogTitle>
          <DialogDescription>
            {version &&
              t('workflowEditor.history.previewDescription', {
                time: formatRelativeTime(version.updatedAt),
              })}
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-0 flex-1 overflow-hidden rounded-lg border">
          {version ? (
            <PreviewCanvas key={version.id} version={version} />
          ) : (
            <Skeleton className="size-full" />
          )}
        </div>
        {!readOnly && version && (
          <DialogFooter>
            <Button
              data-testid="version-preview-restore"
              disabled={busy}
              onClick={() => onRestore(version)}
            >
              <RotateCcwIcon /> {t('workflowEditor.history.restoreConfirm')}
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  )
}

function PreviewCanvas({ version }: { version: WorkflowVersion }) {
  const [store] = useState(() =>
    createWorkflowEditorStore({
      workflow: { ...version.workflow, id: version.id },
      readOnly: true,
    })
  )
  return (
    <WorkflowEditorContext.Provider value={store}>
      <ReactFlowProvider>
        <WorkflowCanvas testId="version-preview-canvas" />
      </ReactFlowProvider>
    </WorkflowEditorContext.Provider>
  )
}
