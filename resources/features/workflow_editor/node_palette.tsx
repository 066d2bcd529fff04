import { useRef, useState } from 'react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, XIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { cn } from '~/lib/utils'
import { NARROW_QUERY, useMediaQuery } from '~/hooks/use_media_query'
import { useWorkflowEditorApi } from './workflow_editor_store'
import { addNode } from './workflow_editing'
import { nodeFromPlugin, placeNewNode } from './node_placement'
import { NEW_NODE_MIME } from './workflow_plugins'
import { PaletteList, PaletteSearch, useViewCenter } from '~/features/editor_shell/plugin_palette'
import { NODE_FAMILIES, type WorkflowEditorPlugin } from './types'

/**
 * The node types to add, by family (trigger, action, model, tool, data, flow), with a
 * search. Drag one onto the canvas, or click it (or press Enter) to add it in the middle
 * of the view. Node types the plan does not include show a lock and an upgrade hint.
 */
export function NodePalette({ plugins }: { plugins: WorkflowEditorPlugin[] }) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const { setCenter, getZoom } = useReactFlow()
  const viewCenter = useViewCenter('workflow')
  const [query, setQuery] = useState('')
  // On a phone the palette is a drawer over the canvas, which keeps the screen's width.
  const narrow = useMediaQuery(NARROW_QUERY)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const openButton = useRef<HTMLButtonElement>(null)
  const shown = !narrow || drawerOpen

  function closeDrawer() {
    setDrawerOpen(false)
    openButton.current?.focus()
  }

  /** Keyboard and click alternative to dragging. */
  function addAtCenter(plugin: WorkflowEditorPlugin) {
    if (plugin.locked) return
    const center = viewCenter()
    const { edit, openNode, history, openNodeId } = api.getState()
    const spot = placeNewNode(history.present.blocks, center, openNodeId)
    const block = nodeFromPlugin(plugin, spot)
    edit((doc) => addNode(doc, block))
    openNode(block.id)
    if (narrow) setDrawerOpen(false)
    // The new node may land off screen: bring it into view.
    void setCenter(spot.x + 120, spot.y + 60, { zoom: getZoom() })
  }

  return (
    <>
      {narrow && (
        <Button
          ref={openButton}
          size="sm"
          data-testid="palette-open"
          aria-expanded={drawerOpen}
          className="absolute top-3 left-3 z-10 shadow-md"
          onClick={() => setDrawerOpen(true)}
        >
          <PlusIcon aria-hidden /> {t('editorCanvas.palette.open')}
        </Button>
      )}
      {narrow && drawerOpen && (
        <div
          aria-hidden
          className="absolute inset-0 z-20 bg-black/30"
          onClick={() => setDrawerOpen(false)}
        />
      )}
      <aside
        data-testid="node-palette"
        data-tour="workflow-palette"
        aria-label={t('workflowEditor.palette.label')}
        onKeyDown={(event) => {
          if (narrow && event.key === 'Escape') closeDrawer()
        }}
        className={cn(
          'flex w-60 shrink-0 flex-col border-r bg-card',
          narrow && 'absolute inset-y-0 left-0 z-30 w-72 max-w-[85%] shadow-xl',
          !shown && 'hidden'
        )}
      >
        <div className="flex items-center gap-1 p-2">
          <PaletteSearch surface="workflow" query={query} onQueryChange={setQuery} />
          {narrow && (
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              data-testid="palette-close"
              aria-label={t('editorCanvas.palette.close')}
              onClick={closeDrawer}
            >
              <XIcon />
            </Button>
          )}
        </div>
        <PaletteList
          surface="workflow"
          plugins={plugins}
          query={query}
          categories={NODE_FAMILIES}
          titleOf={(family) => t(`workflowEditor.families.${family}`)}
          emptyMessage={
            plugins.length === 0
              ? t('workflowEditor.palette.noPlugins')
              : t('workflowEditor.palette.noResults')
          }
          dragType={NEW_NODE_MIME}
          onAdd={addAtCenter}
        />
      </aside>
    </>
  )
}
