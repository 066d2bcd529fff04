import { useMemo } from 'react'
import type { WorkflowJson, WorkflowSnapshot } from '#shared/workflow/types'
import { CopilotDock, type CopilotEditorAdapter } from '~/features/editor_shell/copilot_panel'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { useWorkflowHistoryAdapter } from './history_popover'

/** The workflow editor's side of the shared copilot panel (docs/copilot.md). */
export function WorkflowCopilot() {
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const history = useWorkflowHistoryAdapter()
  const adapter = useMemo<CopilotEditorAdapter<WorkflowSnapshot>>(
    () => ({
      apiBase: `/api/workflows/${workflowId}`,
      readOnly,
      flush: () => api.getState().save(),
      apply: (document) => api.getState().replaceWithSaved(document as WorkflowJson),
      undo: () => api.getState().undo(),
      history,
    }),
    [api, workflowId, readOnly, history]
  )
  return <CopilotDock adapter={adapter} />
}
