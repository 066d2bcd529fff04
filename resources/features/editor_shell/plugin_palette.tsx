import { useMemo } from 'react'
import { Link } from '@inertiajs/react'
import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { LockIcon, SearchIcon } from 'lucide-react'
import { Input } from '~/components/ui/input'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { cn } from '~/lib/utils'
import type { EditorSurface } from './item_settings'
import { matchesPluginSearch, pluginTestId, type SearchablePlugin } from './plugin_search'

/**
 * What the bot editor's blocks sidebar and the workflow editor's node palette share: the
 * search, the plugins by category, each a tile to drag onto the canvas or to add with a
 * click or Enter, and the upgrade hint of locked plugins. Each keeps its own frame (a
 * folding sidebar, a column) and what adding does; test ids and texts stay each surface's.
 */

export interface PalettePlugin extends SearchablePlugin {
  category: string
  icon?: string | null
  locked?: boolean
}

const SURFACE = {
  bot: {
    canvas: 'editor-canvas',
    search: 'editor.sidebar.search',
    searchTestId: 'sidebar-search',
    tile: 'sidebar-block',
    tiles: 'grid grid-cols-2 gap-1.5',
    locked: 'editor.sidebar.locked',
    lockedHint: 'editor.sidebar.lockedHint',
    lockedHintTestId: 'sidebar-locked-hint',
    upgrade: 'editor.sidebar.upgrade',
    upgradeTestId: 'sidebar-upgrade',
    emptyTestId: undefined,
    categoryTestId: undefined,
  },
  workflow: {
    canvas: 'workflow-canvas',
    search: 'workflowEditor.palette.search',
    searchTestId: 'palette-search',
    tile: 'palette-node',
    tiles: 'grid gap-1.5',
    locked: 'workflowEditor.palette.locked',
    lockedHint: 'workflowEditor.palette.lockedHint',
    lockedHintTestId: 'palette-locked-hint',
    upgrade: 'workflowEditor.palette.upgrade',
    upgradeTestId: 'palette-upgrade',
    emptyTestId: 'palette-empty',
    categoryTestId: 'palette-family',
  },
} as const

/**
 * Where a plugin added without a drag goes: the middle of the canvas, a third of the way
 * down (under the header's menus), in flow coordinates.
 */
export function useViewCenter(surface: EditorSurface) {
  const { screenToFlowPosition } = useReactFlow()
  return () => {
    const canvas = document.querySelector(`[data-testid="${SURFACE[surface].canvas}"]`)
    const rect = canvas?.getBoundingClientRect()
    return screenToFlowPosition({
      x: rect ? rect.left + rect.width / 2 : window.innerWidth / 2,
      y: rect ? rect.top + rect.height / 3 : window.innerHeight / 3,
    })
  }
}

export function PaletteSearch({
  surface,
  query,
  onQueryChange,
}: {
  surface: EditorSurface
  query: string
  onQueryChange: (query: string) => void
}) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  return (
    <div className="relative flex-1">
      <SearchIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        data-testid={texts.searchTestId}
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
        placeholder={t(texts.search)}
        aria-label={t(texts.search)}
        className="h-8 pl-8"
      />
    </div>
  )
}

/**
 * The plugins matching the search, by category in the given order (empty categories
 * left out), or `emptyMessage` when none match; then the upgrade hint if some are locked.
 */
export function PaletteList<P extends PalettePlugin, C extends string>({
  surface,
  plugins,
  query,
  categories,
  titleOf,
  emptyMessage,
  dragType,
  disabled = false,
  onAdd,
}: {
  surface: EditorSurface
  plugins: P[]
  query: string
  categories: readonly C[]
  titleOf: (category: C) => string
  emptyMessage: string
  dragType: string
  /** All tiles off (a read-only editor); locked plugins are off anyway. */
  disabled?: boolean
  onAdd: (plugin: P) => void
}) {
  const texts = SURFACE[surface]
  const byCategory = useMemo(() => {
    const matching = plugins.filter((plugin) => matchesPluginSearch(plugin, query))
    return categories
      .map((category) => ({
        category,
        members: matching.filter((plugin) => plugin.category === category),
      }))
      .filter((entry) => entry.members.length > 0)
  }, [plugins, query, categories])
  return (
    <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
      {byCategory.length === 0 && (
        <p
          className="px-1 py-4 text-center text-sm text-muted-foreground"
          data-testid={texts.emptyTestId}
        >
          {emptyMessage}
        </p>
      )}
      {byCategory.map(({ category, members }) => (
        <section
          key={category}
          className="mb-3"
          data-testid={texts.categoryTestId && `${texts.categoryTestId}-${category}`}
        >
          <h2 className="px-1 pb-1.5 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {titleOf(category)}
          </h2>
          <ul className={texts.tiles}>
            {members.map((plugin) => (
              <li key={plugin.id}>
                <PaletteTile
                  surface={surface}
                  plugin={plugin}
                  dragType={dragType}
                  disabled={disabled || !!plugin.locked}
                  onAdd={() => onAdd(plugin)}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
      {plugins.some((plugin) => plugin.locked) && <LockedHint surface={surface} />}
    </div>
  )
}

/** Under the categories when some plugins are locked: why, and where to upgrade. */
function LockedHint({ surface }: { surface: EditorSurface }) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  return (
    <p className="px-1 pt-1 text-xs text-muted-foreground" data-testid={texts.lockedHintTestId}>
      <LockIcon aria-hidden className="mr-1 inline size-3" />
      {t(texts.lockedHint)}{' '}
      <Link href="/bots/plans" className="font-medium text-primary underline">
        {t(texts.upgrade)}
      </Link>
    </p>
  )
}

/**
 * A plugin to add: dragged (with `dragType`) onto the canvas, or added by a click (touch
 * screens have no HTML drag and drop) or Enter. A locked one says why in a tooltip.
 */
function PaletteTile({
  surface,
  plugin,
  dragType,
  disabled,
  onAdd,
}: {
  surface: EditorSurface
  plugin: PalettePlugin
  dragType: string
  disabled: boolean
  onAdd: () => void
}) {
  const { t } = useTranslation()
  const texts = SURFACE[surface]
  const workflow = surface === 'workflow'
  const body = (
    <div
      data-testid={`${texts.tile}-${pluginTestId(plugin.id)}`}
      data-locked={plugin.locked || undefined}
      role="button"
      tabIndex={0}
      aria-disabled={disabled || undefined}
      aria-label={
        // The node palette names the lock in the tile's name; the sidebar, on its icon.
        workflow ? (plugin.locked ? `${plugin.name} (${t(texts.locked)})` : plugin.name) : undefined
      }
      draggable={!disabled}
      onDragStart={(event) => {
        event.dataTransfer.setData(dragType, plugin.id)
        event.dataTransfer.effectAllowed = 'move'
      }}
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
        workflow && 'select-none',
        disabled
          ? 'cursor-not-allowed opacity-60'
          : 'cursor-grab hover:border-primary/60 hover:shadow-sm'
      )}
    >
      <PluginIcon id={plugin.id} icon={plugin.icon} className="size-4 shrink-0 text-primary" />
      <span className="min-w-0 flex-1 truncate" title={plugin.fullName}>
        {plugin.name}
      </span>
      {plugin.locked &&
        (workflow ? (
          <LockIcon aria-hidden className="size-3.5" />
        ) : (
          <LockIcon aria-label={t(texts.locked)} className="size-3.5" />
        ))}
    </div>
  )
  if (!plugin.locked) return body
  return (
    <Tooltip>
      <TooltipTrigger asChild>{body}</TooltipTrigger>
      <TooltipContent>
        {t(texts.lockedHint)}{' '}
        <Link href="/bots/plans" className="underline" data-testid={texts.upgradeTestId}>
          {t(texts.upgrade)}
        </Link>
      </TooltipContent>
    </Tooltip>
  )
}
