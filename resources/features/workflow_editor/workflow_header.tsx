import { useState } from 'react'
import { CoeditPeers } from '~/features/editor_shell/coedit_ui'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  BracesIcon,
  DownloadIcon,
  LoaderCircleIcon,
  PlayIcon,
  SettingsIcon,
  ListChecksIcon,
} from 'lucide-react'
import type { WorkflowStatus } from '#shared/workflow/types'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Switch } from '~/components/ui/switch'
import { Label } from '~/components/ui/label'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { HttpError, errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { selectSaveStatus, useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { HeaderMenu } from '~/features/canvas/header_menu'
import { HistoryPopover } from './history_popover'
import { TestRunDialog } from './test_run_dialog'
import { VariablesPopover } from './variables_popover'
import { WorkflowSettingsSheet } from './workflow_settings_sheet'
import { HelpMenu } from '~/features/onboarding/help_menu'
import {
  BackToList,
  EditableName,
  IconAction,
  SaveStatus,
  UndoRedo,
} from '~/features/editor_shell/header_controls'
import type { WorkflowSaveResponse } from './types'

const STATUS_VARIANTS: Record<WorkflowStatus, 'success' | 'secondary' | 'destructive'> = {
  PUBLISHED: 'success',
  DRAFT: 'secondary',
  DISABLED: 'destructive',
}

export function WorkflowHeader({
  run,
}: {
  run: {
    available: boolean
    starting: boolean
    start: (input?: unknown, options?: { usePinned?: boolean }) => void
    live: boolean
  }
}) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const name = useWorkflowEditor((state) => state.history.present.name)
  const saveStatus = useWorkflowEditor(selectSaveStatus)
  const status = useWorkflowEditor((state) => state.meta.status)
  // Unpublished changes of a workflow published before: its published version still runs.
  const liveBehind = useWorkflowEditor(
    (state) => state.meta.status === 'DRAFT' && !!state.meta.publishedAt
  )
  const runStatus = useWorkflowEditor((state) => state.run?.status)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [sampleOpen, setSampleOpen] = useState(false)

  const running = runStatus === 'queued' || runStatus === 'running'

  return (
    <header className="relative flex h-14 shrink-0 items-center gap-2 border-b bg-background px-3">
      <BackToList surface="workflow" />
      <EditableName surface="workflow" store={api} />
      <Tooltip>
        <TooltipTrigger asChild>
          <Badge
            variant={STATUS_VARIANTS[status] ?? 'secondary'}
            data-testid="workflow-status"
            data-status={status}
            data-unpublished-changes={liveBehind ? 'true' : undefined}
            tabIndex={liveBehind ? 0 : undefined}
          >
            {liveBehind
              ? t('workflowLive.unpublishedChanges')
              : t(`workflowEditor.status.${status}`, { defaultValue: status })}
          </Badge>
        </TooltipTrigger>
        {liveBehind && <TooltipContent>{t('workflowLive.note')}</TooltipContent>}
      </Tooltip>
      {liveBehind && (
        <span
          data-testid="workflow-live-note"
          className="hidden text-xs whitespace-nowrap text-muted-foreground 2xl:inline"
        >
          {t('workflowLive.note')}
        </span>
      )}
      {!readOnly && <UndoRedo surface="workflow" store={api} />}
      <CoeditPeers />
      {!readOnly && <SaveStatus surface="workflow" status={saveStatus} />}

      <HeaderMenu>
        <div className="flex flex-wrap items-center gap-1 md:ml-auto md:flex-nowrap">
          {!readOnly && run.available && (
            <div className="flex items-center">
              <Tooltip>
                <TooltipTrigger asChild>
                  <Button
                    variant="outline"
                    size="sm"
                    className="rounded-r-none"
                    data-testid="workflow-run"
                    data-tour="workflow-run"
                    // Tests and support read how runs are followed: the event stream, or polling.
                    data-stream={run.live ? 'live' : 'polling'}
                    disabled={run.starting || running}
                    onClick={() => run.start()}
                  >
                    {run.starting || running ? (
                      <LoaderCircleIcon className="animate-spin" aria-hidden />
                    ) : (
                      <PlayIcon aria-hidden />
                    )}
                    {running ? t('workflowEditor.run.running') : t('workflowTestRun.run')}
                  </Button>
                </TooltipTrigger>
                <TooltipContent>{t('workflowTestRun.hint')}</TooltipContent>
              </Tooltip>
              <IconAction
                surface="workflow"
                label={t('workflowTestRun.withPayload')}
                testId="workflow-run-sample"
                disabled={run.starting || running}
                onClick={() => setSampleOpen(true)}
                className="rounded-l-none border border-l-0"
              >
                <BracesIcon />
              </IconAction>
              <TestRunDialog
                open={sampleOpen}
                onOpenChange={setSampleOpen}
                // A payload typed for this run stands in for the pinned sample.
                onStart={(input) => run.start(input, { usePinned: false })}
              />
            </div>
          )}
          <Button variant="ghost" size="sm" asChild>
            <Link
              href={`/workflows/${workflowId}/runs`}
              data-testid="workflow-runs-link"
              aria-label={t('workflowRuns.openLabel', { name })}
            >
              <ListChecksIcon aria-hidden />
              <span className="hidden lg:inline">{t('workflowRuns.open')}</span>
            </Link>
          </Button>
          <VariablesPopover />
          <Button
            variant="ghost"
            size="sm"
            data-testid="workflow-settings-button"
            aria-label={t('workflowEditor.workflowSettings.title')}
            onClick={() => setSettingsOpen(true)}
          >
            <SettingsIcon />
            <span className="hidden lg:inline">{t('workflowEditor.workflowSettings.title')}</span>
          </Button>
          <HistoryPopover />
          <HelpMenu compact />
          <Tooltip>
            <TooltipTrigger asChild>
              <Button variant="ghost" size="icon-sm" asChild>
                <a
                  href={`/workflows/${workflowId}/export`}
                  download
                  data-testid="workflow-export"
                  aria-label={t('workflowEditor.export')}
                >
                  <DownloadIcon />
                </a>
              </Button>
            </TooltipTrigger>
            <TooltipContent>{t('workflowEditor.export')}</TooltipContent>
          </Tooltip>
          {!readOnly && <PublishControls />}
        </div>
      </HeaderMenu>
      <WorkflowSettingsSheet open={settingsOpen} onOpenChange={setSettingsOpen} />
    </header>
  )
}

/** The active switch and the Publish button; the server's answer sets both. */
function PublishControls() {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const status = useWorkflowEditor((state) => state.meta.status)
  const isActive = useWorkflowEditor((state) => state.meta.isActive)
  const saved = useWorkflowEditor((state) => selectSaveStatus(state) === 'saved')
  const [busy, setBusy] = useState(false)

  async function publish() {
    setBusy(true)
    try {
      // The server publishes what it holds: send the draft first.
      if (!(await api.getState().save())) return
      const answer = await jsonFetch<WorkflowSaveResponse>(
        `/api/v1/workflows/${workflowId}/publish`,
        { method: 'POST' }
      )
      api.getState().applyServerWorkflow(answer.workflow)
      showToast('success', t('workflowEditor.publish.published'))
    } catch (error) {
      // A refusal names its reason ('"LLM agent" needs a Model attachment') with what to do.
      const reason =
        error instanceof HttpError && error.status === 422 && error.description
          ? error.message
          : undefined
      showToast('error', reason ?? t('workflowEditor.errors.publish'), errorDescription(error))
    } finally {
      setBusy(false)
    }
  }

  async function setActive(active: boolean) {
    setBusy(true)
    try {
      if (active) {
        // A pending graph edit would unpublish the workflow: save, then judge.
        if (!(await api.getState().save())) return
        // A published version is what runs: unpublished changes do not stop activation.
        if (!api.getState().meta.publishedAt) {
          showToast('error', t('workflowEditor.errors.publishFirst'))
          return
        }
      }
      const answer = await jsonFetch<WorkflowSaveResponse>(
        `/api/v1/workflows/${workflowId}/${active ? 'activate' : 'deactivate'}`,
        { method: 'POST' }
      )
      api.getState().applyServerWorkflow(answer.workflow)
      showToast(
        'success',
        active ? t('workflowEditor.publish.activated') : t('workflowEditor.publish.deactivated')
      )
    } catch (error) {
      showToast(
        'error',
        active ? t('workflowEditor.errors.activate') : t('workflowEditor.errors.deactivate'),
        errorDescription(error)
      )
    } finally {
      setBusy(false)
    }
  }

  const upToDate = status === 'PUBLISHED' && saved
  return (
    <div className="ml-1 flex items-center gap-3 border-l pl-3">
      <div className="flex items-center gap-2">
        <Switch
          id="workflow-active"
          data-testid="workflow-active"
          checked={isActive}
          disabled={busy}
          onCheckedChange={(checked) => void setActive(checked)}
        />
        <Label htmlFor="workflow-active" className="text-xs">
          {isActive ? t('workflowEditor.publish.active') : t('workflowEditor.publish.inactive')}
        </Label>
      </div>
      <Button
        size="sm"
        data-testid="workflow-publish"
        data-tour="workflow-publish"
        disabled={busy || upToDate}
        onClick={() => void publish()}
      >
        {busy && <LoaderCircleIcon className="animate-spin" aria-hidden />}
        {upToDate ? t('workflowEditor.publish.upToDate') : t('workflowEditor.publish.publish')}
      </Button>
    </div>
  )
}
