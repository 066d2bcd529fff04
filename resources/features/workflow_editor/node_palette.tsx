import { useMemo, useRef, useState } from 'react'
import { Link } from '@inertiajs/react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { LockIcon, PlusIcon, SearchIcon, XIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { cn } from '~/lib/utils'
import { NARROW_QUERY, useMediaQuery } from '~/hooks/use_media_query'
import { useWorkflowEditorApi } from './workflow_editor_store'
import { addNode } from './workflow_editing'
import { nodeFromPlugin, placeNewNode } from './workflow_canvas'
import { NEW_NODE_MIME, pluginTestId } from './workflow_plugins'
import { matchesPluginSearch } from '~/features/editor_shell/plugin_search'
import { NODE_FAMILIES, type WorkflowEditorPlugin } from './types'

/**
 * The node types to add, by family (trigger, action, model, tool, data, flow), with a
 * search. Drag one onto the canvas, or click it (or press Enter) to add it in the middle
 * of the view. Node types the plan does not include show a lock and an upgrade hint.
 */
export function NodePalette({ plugins }: { plugins: WorkflowEditorPlugin[] }) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const { screenToFlowPosition, setCenter, getZoom } = useReactFlow()
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

  const families = useMemo(() => {
    const matching = plugins.filter((plugin) => matchesPluginSearch(plugin, query))
    return NODE_FAMILIES.map((family) => ({
      family,
      plugins: matching.filter((plugin) => plugin.category === family),
    })).filter((entry) => entry.plugins.length > 0)
  }, [plugins, query])

  /** Keyboard and click alternative to dragging. */
  function addAtCenter(plugin: WorkflowEditorPlugin) {
    if (plugin.locked) return
    const canvas = document.querySelector('[data-testid="workflow-canvas"]')
    const rect = canvas?.getBoundingClientRect()
    const center = screenToFlowPosition({
      x: rect ? rect.left + rect.width / 2 : window.innerWidth / 2,
      y: rect ? rect.top + rect.height / 3 : window.innerHeight / 3,
    })
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
          <div className="relative flex-1">
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              data-testid="palette-search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('workflowEditor.palette.search')}
              aria-label={t('workflowEditor.palette.search')}
              className="h-8 pl-8"
            />
          </div>
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
        <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
          {families.length === 0 && (
            <p
              className="px-1 py-4 text-center text-sm text-muted-foreground"
              data-testid="palette-empty"
            >
              {plugins.length === 0
                ? t('workflowEditor.palette.noPlugins')
                : t('workflowEditor.palette.noResults')}
            </p>
          )}
          {families.map(({ family, plugins: members }) => (
            <section key={family} className="mb-3" data-testid={`palette-family-${family}`}>
              <h2 className="px-1 pb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {t(`workflowEditor.families.${family}`)}
              </h2>
              <ul className="grid gap-1.5">
                {members.map((plugin) => (
                  <li key={plugin.id}>
                    <PaletteItem plugin={plugin} onAdd={() => addAtCenter(plugin)} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {plugins.some((plugin) => plugin.locked) && (
            <p
              className="px-1 pt-1 text-xs text-muted-foreground"
              data-testid="palette-locked-hint"
            >
              <LockIcon aria-hidden className="mr-1 inline size-3" />
              {t('workflowEditor.palette.lockedHint')}{' '}
              <Link href="/bots/plans" className="font-medium text-primary underline">
                {t('workflowEditor.palette.upgrade')}
              </Link>
            </p>
          )}
        </div>
      </aside>
    </>
  )
}

function PaletteItem({ plugin, onAdd }: { plugin: WorkflowEditorPlugin; onAdd: () => void }) {
  const { t } = useTranslation()
  const body = (
    <div
      data-testid={`palette-node-${pluginTestId(plugin.id)}`}
      data-locked={plugin.locked || undefined}
      role="button"
      tabIndex={0}
      aria-disabled={plugin.locked || undefined}
      aria-label={
        plugin.locked ? `${plugin.name} (${t('workflowEditor.palette.locked')})` : plugin.name
      }
      draggable={!plugin.locked}
      onDragStart={(event) => {
        event.dataTransfer.setData(NEW_NODE_MIME, plugin.id)
        event.dataTransfer.effectAllowed = 'move'
      }}
      onClick={() => {
        if (!plugin.locked) onAdd()
      }}
      onKeyDown={(event) => {
        if (!plugin.locked && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault()
          onAdd()
        }
      }}
      className={cn(
        'flex h-9 items-center gap-2 rounded-lg border bg-background px-2 text-sm outline-none select-none focus-visible:ring-2 focus-visible:ring-ring/50',
        plugin.locked
          ? 'cursor-not-allowed opacity-60'
          : 'cursor-grab hover:border-primary/60 hover:shadow-sm'
      )}
    >
      <PluginIcon id={plugin.id} icon={plugin.icon} className="size-4 shrink-0 text-primary" />
      <span className="min-w-0 flex-1 truncate" title={plugin.fullName}>
        {plugin.name}
      </span>
      {plugin.locked && <LockIcon aria-hidden className="size-3.5" />}
    </div>
  )
  if (!plugin.locked) return body
  return (
    <Tooltip>
      <TooltipTrigger asChild>{body}</TooltipTrigger>
      <TooltipContent>
        {t('workflowEditor.palette.lockedHint')}{' '}
        <Link href="/bots/plans" className="underline" data-testid="palette-upgrade">
          {t('workflowEditor.palette.upgrade')}
        </Link>
      </TooltipContent>
    </Tooltip>
  )
}
