import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
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
  CoeditContext,
  CoeditOfflineNotice,
  useCoeditSession,
} from '~/features/editor_shell/coedit_ui'
import { usePageProps } from '~/hooks/use_shared_props'
import {
  createWorkflowEditorStore,
  workflowCoedit,
  useWorkflowEditor,
  WorkflowEditorContext,
  type WorkflowEditorState,
} from './workflow_editor_store'
import { duplicateNode } from './workflow_editing'
import { toEditorPlugins, WorkflowPluginsContext } from './workflow_plugins'
import { usePluginLocales } from './plugin_locales'
import { WorkflowHeader } from './workflow_header'
import { WorkflowCanvas } from './workflow_canvas'
import { NodePalette } from './node_palette'
import { useWorkflowRun, WorkflowRunContext } from './use_workflow_run'
import { WorkflowCopilot } from './workflow_copilot'
import { TourHost } from '~/features/onboarding/tour_host'
import type { WorkflowDoc, WorkflowPageProps } from './types'

/*
 * The node settings panel (the plugin forms) loads when first opened, or when the browser is
 * idle after the canvas is up, so that the first click does not wait (as the bot editor's).
 */
const loadNodeSettings = () => import('./node_settings')
const NodeSettings = lazy(() => loadNodeSettings().then((m) => ({ default: m.NodeSettings })))

/** The settings panel of the open node, mounted (and its code loaded) only while one is. */
function OpenNodeSettings({ workspaceId, appUrl }: { workspaceId?: string; appUrl?: string }) {
  const open = useWorkflowEditor((state) => state.openNodeId !== null)
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200))
    idle(() => void loadNodeSettings())
  }, [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <NodeSettings workspaceId={workspaceId} appUrl={appUrl} />
    </Suspense>
  )
}

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
  const { user } = usePageProps()
  // Everyone who may open the workflow edits (or, read-only, watches) it live with the others.
  const coedit = useCoeditSession<WorkflowEditorState, WorkflowDoc>({
    enabled: !!user && !!workflow.id,
    kind: 'workflows',
    id: workflow.id ?? '',
    userId: user?.id ?? '',
    store,
    ...workflowCoedit,
  })
  useDraftAutosave(store, savedDoc)
  useEditorShortcuts(store, !readOnly, onWorkflowKey)
  useBodyScrollLock()

  return (
    <CoeditContext.Provider value={coedit}>
      <WorkflowEditorContext.Provider value={store}>
        <WorkflowPluginsContext.Provider value={pluginMap}>
          <ReactFlowProvider>
            <WorkflowRunContext.Provider value={run}>
              <div className="flex h-dvh flex-col overflow-hidden bg-background">
                <WorkflowHeader run={run} />
                <ConflictNotice store={store} />
                <CoeditOfflineNotice />
                {readOnly && <ReadOnlyBanner message={t('workflowEditor.readOnly')} />}
                <main className="relative flex min-h-0 flex-1">
                  {!readOnly && <NodePalette plugins={editorPlugins} />}
                  <div className="relative min-w-0 flex-1" data-tour="workflow-canvas">
                    <WorkflowCanvas />
                    <OpenNodeSettings workspaceId={workflow.workspaceId} appUrl={appUrl} />
                    {!readOnly && <WorkflowCopilot />}
                  </div>
                </main>
              </div>
            </WorkflowRunContext.Provider>
            <TourHost autoStart={!readOnly} />
          </ReactFlowProvider>
        </WorkflowPluginsContext.Provider>
      </WorkflowEditorContext.Provider>
    </CoeditContext.Provider>
  )
}
