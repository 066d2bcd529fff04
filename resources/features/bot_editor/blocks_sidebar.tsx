import { useMemo, useState } from 'react'
import { Link } from '@inertiajs/react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { LockIcon, PinIcon, PinOffIcon, PlusIcon, SearchIcon, XIcon } from 'lucide-react'
import { addGroup, newBlock } from '#shared/bot/editing'
import { Input } from '~/components/ui/input'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { cn } from '~/lib/utils'
import { NARROW_QUERY, useMediaQuery } from '~/hooks/use_media_query'
import { useBotEditorApi } from './bot_editor_store'
import { NEW_BLOCK_MIME, pluginTestId } from './editor_plugins'
import { blockInit } from './group_node'
import { useSidebarState } from './sidebar_state'
import { matchesPluginSearch } from '~/features/editor_shell/plugin_search'
import type { EditorPlugin } from './types'

const CATEGORIES: { id: EditorPlugin['category']; labelKey: string }[] = [
  { id: 'bubble', labelKey: 'editor.sidebar.bubbles' },
  { id: 'input', labelKey: 'editor.sidebar.inputs' },
  { id: 'logic', labelKey: 'editor.sidebar.logic' },
  { id: 'integration', labelKey: 'editor.sidebar.integrations' },
]

/**
 * The blocks to drag onto the canvas, by category, with a search. Unpinned, it folds to
 * a narrow rail and opens while hovered or focused; pinned, it stays open. On a phone it is
 * always a rail whose button opens it over the canvas, and closes once a block is added.
 */
export function BlocksSidebar({ plugins }: { plugins: EditorPlugin[] }) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const { screenToFlowPosition } = useReactFlow()
  const [query, setQuery] = useState('')
  const pinned = useSidebarState((state) => state.locked)
  const setPinned = useSidebarState((state) => state.setLocked)
  const narrow = useMediaQuery(NARROW_QUERY)
  const locked = pinned && !narrow
  const [hovered, setHovered] = useState(false)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const open = narrow ? drawerOpen : locked || hovered

  const byCategory = useMemo(() => {
    const matching = plugins.filter((plugin) => matchesPluginSearch(plugin, query))
    return CATEGORIES.map((category) => ({
      ...category,
      plugins: matching.filter((plugin) => plugin.category === category.id),
    })).filter((category) => category.plugins.length > 0)
  }, [plugins, query])

  function toggleLock() {
    if (narrow) setDrawerOpen(!drawerOpen)
    else setPinned(!locked)
  }

  /** Keyboard (and click) alternative to dragging: a new group in the middle of the view. */
  function addAtCenter(plugin: EditorPlugin) {
    const canvas = document.querySelector('[data-testid="editor-canvas"]')
    const rect = canvas?.getBoundingClientRect()
    const position = screenToFlowPosition({
      x: rect ? rect.left + rect.width / 2 : window.innerWidth / 2,
      y: rect ? rect.top + rect.height / 3 : window.innerHeight / 3,
    })
    const block = newBlock(plugin.id, blockInit(plugin))
    api.getState().edit((bot) => addGroup(bot, { coordinates: position, block }).bot)
    api.getState().openBlock(block.id)
    if (narrow) setDrawerOpen(false)
  }

  const toggleLabel = narrow
    ? drawerOpen
      ? t('editorCanvas.sidebar.close')
      : t('editorCanvas.sidebar.open')
    : locked
      ? t('editor.sidebar.unlock')
      : t('editor.sidebar.lock')

  return (
    <aside
      data-testid="blocks-sidebar"
      data-tour="editor-blocks"
      aria-label={t('editor.sidebar.label')}
      className={cn(
        'absolute top-3 bottom-3 left-3 z-10 flex flex-col rounded-xl border bg-card shadow-md transition-[width]',
        open ? 'w-72 max-w-[calc(100%-1.5rem)]' : 'w-12',
        // Folded on a phone, the rail sits at the top: the canvas keeps its height.
        narrow && !open && 'bottom-auto'
      )}
      data-open={open || undefined}
      onMouseEnter={() => !narrow && setHovered(true)}
      onMouseLeave={() => !narrow && setHovered(false)}
      onFocus={() => !narrow && setHovered(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHovered(false)
      }}
      onKeyDown={(event) => {
        if (narrow && event.key === 'Escape') setDrawerOpen(false)
      }}
    >
      <div className="flex items-center gap-2 p-2">
        {open && (
          <div className="relative flex-1">
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              data-testid="sidebar-search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t('editor.sidebar.search')}
              aria-label={t('editor.sidebar.search')}
              className="h-8 pl-8"
            />
          </div>
        )}
        <Tooltip>
          <TooltipTrigger asChild>
            <button
              type="button"
              data-testid="sidebar-lock"
              aria-pressed={narrow ? undefined : locked}
              aria-expanded={narrow ? drawerOpen : undefined}
              aria-label={toggleLabel}
              onClick={toggleLock}
              className="rounded-md p-1.5 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
            >
              {narrow ? (
                drawerOpen ? (
                  <XIcon className="size-4" />
                ) : (
                  <PlusIcon className="size-4" />
                )
              ) : locked ? (
                <PinOffIcon className="size-4" />
              ) : (
                <PinIcon className="size-4" />
              )}
            </button>
          </TooltipTrigger>
          <TooltipContent>{toggleLabel}</TooltipContent>
        </Tooltip>
      </div>
      {open && (
        <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
          {byCategory.length === 0 && (
            <p className="px-1 py-4 text-center text-sm text-muted-foreground">
              {t('editor.sidebar.noResults')}
            </p>
          )}
          {byCategory.map((category) => (
            <section key={category.id} className="mb-3">
              <h2 className="px-1 pb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {t(category.labelKey)}
              </h2>
              <ul className="grid grid-cols-2 gap-1.5">
                {category.plugins.map((plugin) => (
                  <li key={plugin.id}>
                    <SidebarBlock plugin={plugin} onAdd={() => addAtCenter(plugin)} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {plugins.some((plugin) => plugin.locked) && (
            <p
              className="px-1 pt-1 text-xs text-muted-foreground"
              data-testid="sidebar-locked-hint"
            >
              <LockIcon aria-hidden className="mr-1 inline size-3" />
              {t('editor.sidebar.lockedHint')}{' '}
              <Link href="/bots/plans" className="font-medium text-primary underline">
                {t('editor.sidebar.upgrade')}
              </Link>
            </p>
          )}
        </div>
      )}
    </aside>
  )
}

function SidebarBlock({ plugin, onAdd }: { plugin: EditorPlugin; onAdd: () => void }) {
  const { t } = useTranslation()
  const readOnly = useBotEditorApi().getState().readOnly
  const disabled = readOnly || plugin.locked
  const body = (
    <div
      data-testid={`sidebar-block-${pluginTestId(plugin.id)}`}
      data-locked={plugin.locked || undefined}
      role="button"
      tabIndex={0}
      aria-disabled={disabled || undefined}
      draggable={!disabled}
      onDragStart={(event) => {
        event.dataTransfer.setData(NEW_BLOCK_MIME, plugin.id)
        event.dataTransfer.effectAllowed = 'move'
      }}
      // Touch screens have no HTML drag and drop: a tap adds the block as Enter does.
      onClick={() => {
        if (!disabled) onAdd()
      }}
      onKeyDown={(event) => {
        if (!disabled && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault()
          onAdd()
        }
      }}
      className={cn(
        'flex h-9 items-center gap-2 rounded-lg border bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/50',
        disabled
          ? 'cursor-not-allowed opacity-60'
          : 'cursor-grab hover:border-primary/60 hover:shadow-sm'
      )}
    >
      <PluginIcon id={plugin.id} icon={plugin.icon} className="size-4 shrink-0 text-primary" />
      <span className="min-w-0 flex-1 truncate" title={plugin.fullName}>
        {plugin.name}
      </span>
      {plugin.locked && <LockIcon aria-label={t('editor.sidebar.locked')} className="size-3.5" />}
    </div>
  )
  if (!plugin.locked) return body
  return (
    <Tooltip>
      <TooltipTrigger asChild>{body}</TooltipTrigger>
      <TooltipContent>
        {t('editor.sidebar.lockedHint')}{' '}
        <Link href="/bots/plans" className="underline" data-testid="sidebar-upgrade">
          {t('editor.sidebar.upgrade')}
        </Link>
      </TooltipContent>
    </Tooltip>
  )
}
