import { useMemo, useState } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import {
  ConflictNotice,
  ReadOnlyBanner,
  useBodyScrollLock,
  useDraftAutosave,
  useEditorShortcuts,
} from '~/features/editor_shell/editor_frame'
import {
  createWorkflowEditorStore,
  WorkflowEditorContext,
  type WorkflowEditorState,
} from './workflow_editor_store'
import { duplicateNode } from './workflow_editing'
import { toEditorPlugins, WorkflowPluginsContext } from './workflow_plugins'
import { usePluginLocales } from './plugin_locales'
import { WorkflowHeader } from './workflow_header'
import { WorkflowCanvas } from './workflow_canvas'
import { NodePalette } from './node_palette'
import { NodeSettings } from './node_settings'
import { useWorkflowRun } from './use_workflow_run'
import { WorkflowCopilot } from './workflow_copilot'
import { TourHost } from '~/features/onboarding/tour_host'
import type { WorkflowPageProps } from './types'

/** Ctrl/Cmd+D duplicates the selected nodes (or the open one). */
function onWorkflowKey(key: string, event: KeyboardEvent, state: WorkflowEditorState) {
  if (key !== 'd') return
  const ids = Object.keys(state.selection.nodes)
  if (ids.length === 0 && !state.openNodeId) return
  // The browser's bookmark shortcut otherwise.
  event.preventDefault()
  const targets = ids.length > 0 ? ids : [state.openNodeId!]
  let last: string | undefined
  state.edit((doc) =>
    targets.reduce((current, id) => {
      const result = duplicateNode(current, id)
      last = result.blockId ?? last
      return result.doc
    }, doc)
  )
  if (last) state.openNode(last)
}

const savedDoc = (state: WorkflowEditorState) => state.savedDoc

export function WorkflowEditor({
  workflow,
  currentUserMode,
  plugins,
  appUrl,
  issues,
}: WorkflowPageProps) {
  const { t } = useTranslation()
  const readOnly = currentUserMode !== 'write'
  const [store] = useState(() =>
    createWorkflowEditorStore({
      workflow: { ...workflow, id: workflow.id ?? '' },
      readOnly,
      issues,
    })
  )
  const pluginIds = useMemo(() => (plugins ?? []).map((plugin) => plugin.id), [plugins])
  // Manifest texts in the builder's language: the plugins are read again once they load.
  const pluginLanguage = usePluginLocales(pluginIds)
  const editorPlugins = useMemo(
    () => (pluginLanguage ? toEditorPlugins(plugins ?? []) : []),
    [plugins, pluginLanguage]
  )
  const pluginMap = useMemo(
    () => new Map(editorPlugins.map((plugin) => [plugin.id, plugin])),
    [editorPlugins]
  )
  const run = useWorkflowRun(store)
  useDraftAutosave(store, savedDoc)
  useEditorShortcuts(store, !readOnly, onWorkflowKey)
  useBodyScrollLock()

  return (
    <WorkflowEditorContext.Provider value={store}>
      <WorkflowPluginsContext.Provider value={pluginMap}>
        <ReactFlowProvider>
          <div className="flex h-dvh flex-col overflow-hidden bg-background">
            <WorkflowHeader run={run} />
            <ConflictNotice store={store} />
            {readOnly && <ReadOnlyBanner message={t('workflowEditor.readOnly')} />}
            <main className="relative flex min-h-0 flex-1">
              {!readOnly && <NodePalette plugins={editorPlugins} />}
              <div className="relative min-w-0 flex-1" data-tour="workflow-canvas">
                <WorkflowCanvas />
                <NodeSettings workspaceId={workflow.workspaceId} appUrl={appUrl} />
                {!readOnly && <WorkflowCopilot />}
              </div>
            </main>
          </div>
          <TourHost autoStart={!readOnly} />
        </ReactFlowProvider>
      </WorkflowPluginsContext.Provider>
    </WorkflowEditorContext.Provider>
  )
}
