import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ReactFlowProvider } from '@xyflow/react'
import { diffWorkflows, unionById, type ChangeKind } from '#shared/history/diff'
import type { WorkflowSnapshot } from '#shared/workflow/types'
import { jsonFetch } from '~/lib/http'
import { HistoryPanel, type HistoryAdapter } from '~/features/editor_shell/history_panel'
import {
  createWorkflowEditorStore,
  useWorkflowEditor,
  useWorkflowEditorApi,
  WorkflowEditorContext,
} from './workflow_editor_store'
import { WorkflowCanvas } from './workflow_canvas'
import { useWorkflowPlugins } from './workflow_plugins'
import type { WorkflowHistory, WorkflowSaveResponse } from './types'

/** The workflow's history: the shared history panel (editor_shell) on workflow versions. */
export function HistoryPopover() {
  return <HistoryPanel adapter={useWorkflowHistoryAdapter()} />
}

/** Workflow versions as the shared history panel and the copilot's previews read them. */
export function useWorkflowHistoryAdapter(): HistoryAdapter<WorkflowSnapshot> {
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const plugins = useWorkflowPlugins()
  const { t } = useTranslation()

  const adapter = useMemo<HistoryAdapter<WorkflowSnapshot>>(
    () => ({
      readOnly,
      errorTitles: {
        fetch: t('fetchErrors.workflowHistory'),
        save: t('fetchErrors.updateWorkflowHistory'),
        restore: t('fetchErrors.updateWorkflowHistory'),
      },
      async list() {
        // The list shows what the server holds: pending edits go first.
        await api.getState().save()
        const history = await jsonFetch<WorkflowHistory>(`/api/v1/workflows/${workflowId}/versions`)
        return (history.versions ?? []).map((version) => ({
          id: version.id,
          versionName: version.versionName,
          kind: version.kind,
          snapshot: version.workflow,
          author: version.author,
          byAssistant: version.updatedBy === 'assistant',
          updatedAt: version.updatedAt,
        }))
      },
      async saveNamed(name) {
        // A failed save says why itself; the version then keeps what the server holds.
        await api.getState().save()
        await jsonFetch(`/api/v1/workflows/${workflowId}/versions`, {
          method: 'POST',
          body: { name },
        })
      },
      async restore(version) {
        await api.getState().save()
        const answer = await jsonFetch<WorkflowSaveResponse>(
          `/api/v1/workflows/${workflowId}/versions/${version.id}/restore`,
          { method: 'POST' }
        )
        api.getState().replaceWithSaved(answer.workflow)
      },
      diff: diffWorkflows,
      typeName: (type) => plugins.get(type)?.name,
      merge: (before, after) => ({
        ...after,
        blocks: unionById(before.blocks, after.blocks),
        edges: unionById(before.edges, after.edges),
      }),
      canvas: ({ snapshot, diff, testId }) => (
        <PreviewCanvas snapshot={snapshot} diff={diff} testId={testId} />
      ),
    }),
    [api, workflowId, readOnly, plugins, t]
  )
  return adapter
}

/** A version's graph on a read-only canvas of its own (its own store, its own viewport). */
function PreviewCanvas({
  snapshot,
  diff,
  testId,
}: {
  snapshot: WorkflowSnapshot
  diff?: Record<string, ChangeKind>
  testId: string
}) {
  const [store] = useState(() =>
    createWorkflowEditorStore({
      workflow: { ...snapshot, id: testId },
      readOnly: true,
      diff,
    })
  )
  return (
    <WorkflowEditorContext.Provider value={store}>
      <ReactFlowProvider>
        <WorkflowCanvas testId={testId} />
      </ReactFlowProvider>
    </WorkflowEditorContext.Provider>
  )
}
