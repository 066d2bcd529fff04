import { useEffect, useMemo, useState } from 'react'
import { ReactFlowProvider } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { EyeIcon } from 'lucide-react'
import { useStoreAutosave, type AutosaveAdapter } from '~/lib/use_autosave'
import {
  createWorkflowEditorStore,
  WorkflowEditorContext,
  type WorkflowEditorState,
  type WorkflowEditorStore,
} from './workflow_editor_store'
import { duplicateNode } from './workflow_editing'
import { toEditorPlugins, WorkflowPluginsContext } from './workflow_plugins'
import { usePluginLocales } from './plugin_locales'
import { WorkflowHeader } from './workflow_header'
import { WorkflowCanvas } from './workflow_canvas'
import { NodePalette } from './node_palette'
import { NodeSettings } from './node_settings'
import { useWorkflowRun } from './use_workflow_run'
import type { WorkflowPageProps } from './types'

const workflowAutosave: AutosaveAdapter<WorkflowEditorState> = {
  readOnly: (state) => state.readOnly,
  draft: (state) => state.history.present,
  isSaved: (state) => state.history.present === state.savedDoc,
  save: (state) => state.save(),
  saveOnLeave: (state) => state.saveOnLeave(),
}

function isTyping(target: EventTarget | null) {
  const element = target as HTMLElement | null
  if (!element) return false
  return (
    element.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) ||
    element.getAttribute('role') === 'textbox'
  )
}

/** Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z or Ctrl+Y, and Ctrl/Cmd+D on the selected nodes. */
function useEditorShortcuts(store: WorkflowEditorStore, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTyping(event.target)) return
      // A dialog (confirmation, settings) owns the keyboard while it is open.
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return
      const key = event.key.toLowerCase()
      const state = store.getState()
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault()
        state.undo()
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault()
        state.redo()
      } else if (key === 'd') {
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
        if (last) store.getState().openNode(last)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [store, enabled])
}

/** Pages ending in /edit own the viewport (spec): no body scrolling. */
function useBodyScrollLock() {
  useEffect(() => {
    document.body.classList.add('no-scroll')
    return () => document.body.classList.remove('no-scroll')
  }, [])
}

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
  useStoreAutosave(store, workflowAutosave)
  useEditorShortcuts(store, !readOnly)
  useBodyScrollLock()

  return (
    <WorkflowEditorContext.Provider value={store}>
      <WorkflowPluginsContext.Provider value={pluginMap}>
        <ReactFlowProvider>
          <div className="flex h-dvh flex-col overflow-hidden bg-background">
            <WorkflowHeader run={run} />
            {readOnly && (
              <div
                data-testid="readonly-banner"
                role="status"
                className="flex items-center justify-center gap-2 border-b bg-muted px-3 py-1.5 text-sm text-muted-foreground"
              >
                <EyeIcon className="size-4" aria-hidden />
                {t('workflowEditor.readOnly')}
              </div>
            )}
            <main className="relative flex min-h-0 flex-1">
              {!readOnly && <NodePalette plugins={editorPlugins} />}
              <div className="relative min-w-0 flex-1">
                <WorkflowCanvas />
                <NodeSettings workspaceId={workflow.workspaceId} appUrl={appUrl} />
              </div>
            </main>
          </div>
        </ReactFlowProvider>
      </WorkflowPluginsContext.Provider>
    </WorkflowEditorContext.Provider>
  )
}
