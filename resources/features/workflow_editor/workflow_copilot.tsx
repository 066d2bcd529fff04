import type { WorkflowJson, WorkflowSnapshot } from '#shared/workflow/types'
import { CopilotDock } from '~/features/editor_shell/copilot_panel'
import { useCopilotAdapter } from '~/features/editor_shell/use_copilot_adapter'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { useWorkflowHistoryAdapter } from './history_popover'

/** The workflow editor's side of the shared copilot panel (docs/copilot.md). */
export function WorkflowCopilot() {
  const api = useWorkflowEditorApi()
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const adapter = useCopilotAdapter<WorkflowSnapshot, WorkflowJson>({
    apiBase: `/api/workflows/${workflowId}`,
    readOnly,
    store: () => api.getState(),
    history: useWorkflowHistoryAdapter(),
  })
  return <CopilotDock adapter={adapter} />
}
