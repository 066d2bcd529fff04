import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PinIcon, PinOffIcon, PlusIcon, XIcon } from 'lucide-react'
import { addGroup, newBlock } from '#shared/bot/editing'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { cn } from '~/lib/utils'
import { NARROW_QUERY, useMediaQuery } from '~/hooks/use_media_query'
import { useBotEditorApi } from './bot_editor_store'
import { NEW_BLOCK_MIME } from './editor_plugins'
import { blockInit } from './group_node'
import { useSidebarState } from './sidebar_state'
import { PaletteList, PaletteSearch, useViewCenter } from '~/features/editor_shell/plugin_palette'
import type { EditorPlugin } from './types'

const CATEGORIES: { id: EditorPlugin['category']; labelKey: string }[] = [
  { id: 'bubble', labelKey: 'editor.sidebar.bubbles' },
  { id: 'input', labelKey: 'editor.sidebar.inputs' },
  { id: 'logic', labelKey: 'editor.sidebar.logic' },
  { id: 'integration', labelKey: 'editor.sidebar.integrations' },
]
const CATEGORY_IDS = CATEGORIES.map((category) => category.id)
const labelKeyOf = (id: EditorPlugin['category']) =>
  CATEGORIES.find((category) => category.id === id)!.labelKey

/**
 * The blocks to drag onto the canvas, by category, with a search. Unpinned, it folds to
 * a narrow rail and opens while hovered or focused; pinned, it stays open. On a phone it is
 * always a rail whose button opens it over the canvas, and closes once a block is added.
 */
export function BlocksSidebar({ plugins }: { plugins: EditorPlugin[] }) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const readOnly = api.getState().readOnly
  const viewCenter = useViewCenter('bot')
  const [query, setQuery] = useState('')
  const pinned = useSidebarState((state) => state.locked)
  const setPinned = useSidebarState((state) => state.setLocked)
  const narrow = useMediaQuery(NARROW_QUERY)
  const locked = pinned && !narrow
  const [hovered, setHovered] = useState(false)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const open = narrow ? drawerOpen : locked || hovered

  function toggleLock() {
    if (narrow) setDrawerOpen(!drawerOpen)
    else setPinned(!locked)
  }

  /** Keyboard (and click) alternative to dragging: a new group in the middle of the view. */
  function addAtCenter(plugin: EditorPlugin) {
    const position = viewCenter()
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
        {open && <PaletteSearch surface="bot" query={query} onQueryChange={setQuery} />}
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
        <PaletteList
          surface="bot"
          plugins={plugins}
          query={query}
          categories={CATEGORY_IDS}
          titleOf={(category) => t(labelKeyOf(category))}
          emptyMessage={t('editor.sidebar.noResults')}
          dragType={NEW_BLOCK_MIME}
          disabled={readOnly}
          onAdd={addAtCenter}
        />
      )}
    </aside>
  )
}
