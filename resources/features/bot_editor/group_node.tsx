import { clientDeclaration } from '~/lib/plugin_registry'
import { memo, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import {
  Handle,
  Position,
  useStoreApi,
  useUpdateNodeInternals,
  type NodeProps,
} from '@xyflow/react'
import { useShallow } from 'zustand/react/shallow'
import { useTranslation } from 'react-i18next'
import {
  CircleAlertIcon,
  CopyIcon,
  EllipsisIcon,
  PlayIcon,
  RepeatIcon,
  Trash2Icon,
  TimerIcon,
} from 'lucide-react'
import {
  deleteBlock,
  deleteGroup,
  duplicateBlock,
  duplicateGroup,
  insertBlock,
  moveBlock,
  newBlock,
  renameGroup,
} from '#shared/bot/editing'
import type { Block, Group, Variable } from '#shared/bot/types'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { cn } from '~/lib/utils'
import { DIFF_ITEM_CLASSES } from '~/features/editor_shell/diff_styles'
import { CLICK_CONNECTING_CLASS } from '~/features/canvas/connect_hint'
import { SourceHandle } from '~/features/canvas/keyboard_connect'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { usePreviewState } from './preview_state'
import { blockSummary, itemSummary } from './block_summary'
import { repeatedGroups } from './repeated_groups'
import { itemChoiceLabel, translatedPluginName } from '~/features/plugin_form/translated_form'
import {
  blockHandleId,
  blockTargetHandleId,
  itemHandleId,
  timeoutHandleId,
  TARGET_HANDLE,
} from './canvas_nodes'
import {
  MOVE_BLOCK_MIME,
  NEW_BLOCK_MIME,
  useEditorPlugin,
  useEditorPlugins,
} from './editor_plugins'

export interface GroupNodeData extends Record<string, unknown> {
  groupId: string
}

const EMPTY_GROUP: Group = { id: '', title: '', graphCoordinates: { x: 0, y: 0 }, blocks: [] }

/** Blocks whose items cover every way out (`items.coverEveryPath`) have no block-level handle. */
const hasDefaultPath = (type: string) => clientDeclaration(type)?.items?.coverEveryPath !== true

/*
 * Groups by id, built once per groups array (a new array after each edit): every mounted
 * node looks its group up on every store change, which a scan of 300 groups would repeat
 * for each node.
 */
const groupIndexes = new WeakMap<Group[], Map<string, Group>>()
function groupById(groups: Group[], id: string): Group | undefined {
  let index = groupIndexes.get(groups)
  if (!index) {
    index = new Map(groups.map((group) => [group.id, group]))
    groupIndexes.set(groups, index)
  }
  return index.get(id)
}

function isDraggedBlock(event: DragEvent) {
  const types = Array.from(event.dataTransfer.types)
  return types.includes(NEW_BLOCK_MIME) || types.includes(MOVE_BLOCK_MIME)
}

/**
 * A group on the canvas: its title and ordered blocks. Memoised and reading only its own
 * group from the store (by id), so that editing one group re-renders that group alone.
 */
export const GroupNode = memo(function GroupNodeView({ id, selected }: NodeProps) {
  return <GroupNodeBody id={id} selected={!!selected} />
})

/*
 * React Flow gives a node new props (position, dragging) on every frame of a drag: the
 * body, memoised on its id and selection alone, is not drawn again while it moves.
 */
const GroupNodeBody = memo(function GroupNodeBodyView({
  id,
  selected,
}: {
  id: string
  selected: boolean
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const { group, variables, readOnly, openBlockId } = useBotEditor(
    useShallow((state) => {
      const found = groupById(state.history.present.groups, id)
      return {
        group: found ?? EMPTY_GROUP,
        variables: state.history.present.variables,
        readOnly: state.readOnly,
        openBlockId:
          state.openBlockId && found?.blocks.some((block) => block.id === state.openBlockId)
            ? state.openBlockId
            : null,
      }
    })
  )
  const plugins = useEditorPlugins()
  const diffKind = useBotEditor((state) => state.diff?.[id])
  const repeatedBy = useBotEditor((state) => repeatedGroups(state.history.present).get(id))
  const updateNodeInternals = useUpdateNodeInternals()
  const [dropIndex, setDropIndex] = useState<number | null>(null)
  const [title, setTitle] = useState(group.title)

  useEffect(() => setTitle(group.title), [group.title])
  // Handles move with the blocks: React Flow must measure them again.
  useEffect(() => updateNodeInternals(id), [group.blocks, id, updateNodeInternals])

  const edit = api.getState().edit

  function commitTitle() {
    if (title.trim() === '') setTitle(group.title)
    else if (title !== group.title) edit((bot) => renameGroup(bot, id, title))
  }

  function indexAt(event: DragEvent<HTMLElement>) {
    return dropIndexAt(event.currentTarget, event.clientY)
  }

  function onDragOver(event: DragEvent<HTMLElement>) {
    if (readOnly || !isDraggedBlock(event)) return
    event.preventDefault()
    event.stopPropagation()
    event.dataTransfer.dropEffect = 'move'
    const index = indexAt(event)
    if (index !== dropIndex) setDropIndex(index)
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    if (readOnly || !isDraggedBlock(event)) return
    event.preventDefault()
    event.stopPropagation()
    const index = indexAt(event)
    setDropIndex(null)
    const pluginId = event.dataTransfer.getData(NEW_BLOCK_MIME)
    const blockId = event.dataTransfer.getData(MOVE_BLOCK_MIME)
    if (pluginId) {
      const plugin = plugins.get(pluginId)
      if (!plugin || plugin.locked) return
      const block = newBlock(pluginId, blockInit(plugin))
      edit((bot) => insertBlock(bot, id, index, block))
      api.getState().openBlock(block.id)
    } else if (blockId) {
      const from = group.blocks.findIndex((block) => block.id === blockId)
      // moveBlock counts the index once the block is out of its group.
      const to = from !== -1 && from < index ? index - 1 : index
      edit((bot) => moveBlock(bot, blockId, id, to))
    }
  }

  return (
    <div
      data-testid="group-node"
      data-group-id={id}
      data-diff={diffKind}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        // Moving from one block to the next fires dragleave as well (and some browsers give
        // drag events no relatedTarget): only a pointer outside the group's box has left.
        const box = event.currentTarget.getBoundingClientRect()
        const inside =
          event.clientX > box.left &&
          event.clientX < box.right &&
          event.clientY > box.top &&
          event.clientY < box.bottom
        if (!inside && !event.currentTarget.contains(event.relatedTarget as Node | null)) {
          setDropIndex(null)
        }
      }}
      onDrop={onDrop}
      className={cn(
        'w-72 rounded-xl border bg-card p-3 text-left text-card-foreground shadow-sm',
        selected && 'border-primary ring-2 ring-primary/30',
        diffKind && DIFF_ITEM_CLASSES[diffKind]
      )}
    >
      <Handle
        type="target"
        id={TARGET_HANDLE}
        position={Position.Left}
        className="!size-3 !border-2 !border-background !bg-primary"
        style={{ top: 22 }}
        isConnectable={!readOnly}
      />
      <div className="mb-2 flex items-center gap-1">
        {readOnly ? (
          <h3
            data-testid="group-title"
            className="min-w-0 flex-1 truncate px-1 text-sm font-semibold"
          >
            {group.title}
          </h3>
        ) : (
          <input
            data-testid="group-title"
            aria-label={t('editor.group.title')}
            className="nodrag min-w-0 flex-1 rounded-md bg-transparent px-1 py-0.5 text-sm font-semibold outline-none hover:bg-muted focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
            value={title}
            maxLength={200}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={commitTitle}
            onKeyDown={(event) => {
              if (event.key === 'Enter') event.currentTarget.blur()
              if (event.key === 'Escape') {
                setTitle(group.title)
                event.currentTarget.blur()
              }
            }}
          />
        )}
        {repeatedBy && (
          <span
            data-testid="group-loop-badge"
            data-loop-block-id={repeatedBy.blockId}
            title={t('editor.group.loopBadgeHint', {
              name: translatedPluginName(
                repeatedBy.blockType,
                plugins.get(repeatedBy.blockType)?.name ?? repeatedBy.blockType
              ),
            })}
            className="flex shrink-0 items-center gap-1 rounded-full bg-primary/10 px-1.5 py-0.5 text-[10px] font-medium text-primary"
          >
            <RepeatIcon className="size-3" aria-hidden />
            {t('editor.group.loopBadge')}
          </span>
        )}
        {!readOnly && (
          <DropdownMenu>
            <DropdownMenuTrigger
              className="nodrag rounded-md p-1 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
              aria-label={t('editor.group.menu')}
              data-testid="group-menu"
            >
              <EllipsisIcon className="size-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem
                data-testid="preview-from-group"
                onSelect={async () => {
                  await api.getState().save()
                  usePreviewState.getState().openPreview({ type: 'group', groupId: id })
                }}
              >
                <PlayIcon /> {t('editorPreview.fromGroup')}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => edit((bot) => duplicateGroup(bot, id).bot)}>
                <CopyIcon /> {t('editor.duplicate')}
              </DropdownMenuItem>
              <DropdownMenuItem
                variant="destructive"
                onSelect={() => edit((bot) => deleteGroup(bot, id))}
              >
                <Trash2Icon /> {t('editor.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      <ol className="flex flex-col gap-2">
        {group.blocks.map((block, index) => (
          <li key={block.id} data-block-row className="relative">
            {dropIndex === index && <DropIndicator edge="top" />}
            {dropIndex === group.blocks.length && index === group.blocks.length - 1 && (
              <DropIndicator edge="bottom" />
            )}
            <BlockRow
              block={block}
              variables={variables}
              readOnly={readOnly}
              isOpen={openBlockId === block.id}
              showDefaultHandle={hasDefaultPath(block.type)}
            />
          </li>
        ))}
      </ol>
    </div>
  )
})

/**
 * Where a dragged block would land: before the first block whose middle lies below the
 * pointer (the upper half of a block means before it, the lower half after it).
 */
export function dropIndexAt(container: HTMLElement, clientY: number) {
  const cards = Array.from(
    container.querySelectorAll<HTMLElement>('[data-block-row] > [data-block-id]')
  )
  const index = cards.findIndex((card) => {
    const rect = card.getBoundingClientRect()
    return clientY < rect.top + rect.height / 2
  })
  return index === -1 ? cards.length : index
}

/**
 * Drawn over the gap between two blocks (or under the last one) without taking room: a
 * marker in the list moves the blocks under the pointer at each dragover, so the drop lands
 * on another element than the last dragover did (and is refused: the block stays where it
 * was) or is measured against halves that have moved.
 */
function DropIndicator({ edge }: { edge: 'top' | 'bottom' }) {
  return (
    <div
      data-testid="drop-indicator"
      aria-hidden
      className={cn(
        'pointer-events-none absolute inset-x-0 z-10 h-1 rounded-full bg-primary',
        edge === 'top' ? '-top-1.5' : '-bottom-1.5'
      )}
    />
  )
}

export function blockInit(plugin: {
  defaults: Record<string, unknown>
  defaultItems: Record<string, unknown>[]
  form: { storedIn: 'options' | 'content'; items?: unknown }
}) {
  const init: Parameters<typeof newBlock>[1] = {}
  if (plugin.form.storedIn === 'content') init.content = plugin.defaults
  else init.options = plugin.defaults
  if (plugin.form.items || plugin.defaultItems.length > 0) init.items = plugin.defaultItems
  return init
}

export const handleClass = cn(
  '!size-3 !border-2 !border-background !bg-primary',
  CLICK_CONNECTING_CLASS
)

const isOnHandle = (target: EventTarget | null) =>
  !!(target as Element | null)?.closest?.('.react-flow__handle')

function BlockRow({
  block,
  variables,
  readOnly,
  isOpen,
  showDefaultHandle,
}: {
  block: Block
  variables: Variable[]
  readOnly: boolean
  isOpen: boolean
  showDefaultHandle: boolean
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const plugin = useEditorPlugin(block.type)
  const blockDiff = useBotEditor((state) => state.diff?.[block.id])
  const issue = useBotEditor((state) => state.issues[block.id]?.[0])
  const flow = useStoreApi()
  const [menuOpen, setMenuOpen] = useState(false)
  // A press on an output handle draws an edge: the block's own drag must not start.
  const pressedOnHandle = useRef(false)
  const summary = blockSummary(block, variables)
  const items = block.items ?? []
  const edit = api.getState().edit
  const handleHint = t('editorCanvas.connect.handleHint')

  function open() {
    api.getState().openBlock(block.id)
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      open()
    }
    if (!readOnly && event.key === 'Delete') {
      event.stopPropagation()
      edit((bot) => deleteBlock(bot, block.id))
    }
  }

  return (
    <div
      data-testid="block-item"
      data-block-id={block.id}
      data-diff={blockDiff}
      data-issues={issue ? true : undefined}
      draggable={!readOnly}
      onPointerDownCapture={(event) => {
        pressedOnHandle.current = isOnHandle(event.target)
      }}
      onDragStart={(event) => {
        event.stopPropagation()
        /*
         * The handles sit inside this draggable block, and the browser's drag of an element
         * starts from any of its descendants: cancelled here, React Flow's connection line
         * follows the pointer instead (docs/editor.md).
         */
        if (pressedOnHandle.current) {
          event.preventDefault()
          return
        }
        event.dataTransfer.setData(MOVE_BLOCK_MIME, block.id)
        event.dataTransfer.effectAllowed = 'move'
      }}
      onClick={(event) => {
        // A click on a handle starts or ends a connection; while one waits for its end, a
        // click on the block ends it there (the canvas' onNodeClick).
        if (isOnHandle(event.target) || flow.getState().connectionClickStartHandle) return
        open()
      }}
      onContextMenu={(event) => {
        if (readOnly) return
        event.preventDefault()
        setMenuOpen(true)
      }}
      className={cn(
        'nodrag group/block relative cursor-pointer rounded-lg border bg-background px-2.5 py-2 text-sm outline-none hover:border-primary/60 has-[[data-block-open]:focus-visible]:ring-2 has-[[data-block-open]:focus-visible]:ring-ring/50',
        isOpen && 'border-primary ring-2 ring-primary/30',
        issue && 'border-destructive',
        blockDiff && DIFF_ITEM_CLASSES[blockDiff]
      )}
    >
      <div className="flex items-start gap-2">
        <PluginIcon
          id={block.type}
          icon={plugin?.icon}
          className="mt-0.5 size-4 shrink-0 text-primary"
        />
        {/*
          The block is not a button itself: it holds its menu's button and the handles, and
          an interactive element inside another is lost to assistive technology. This one
          opens the block; its name starts with the block's type, then the text it shows. Not
          a <button>: Firefox starts no drag of the block from a button inside it.
        */}
        <div
          role="button"
          tabIndex={0}
          data-block-open
          onKeyDown={onKeyDown}
          className="min-w-0 flex-1 outline-none"
        >
          <span className={cn('block truncate', !summary && 'text-muted-foreground')}>
            {summary && <span className="sr-only">{`${plugin?.name ?? block.type}: `}</span>}
            {summary || plugin?.name || block.type}
          </span>
        </div>
        {issue && (
          <CircleAlertIcon
            data-testid="block-issue"
            role="img"
            aria-label={t('editorCanvas.issues', { message: issue.message })}
            className="mt-0.5 size-4 shrink-0 text-destructive"
          >
            <title>{t('editorCanvas.issues', { message: issue.message })}</title>
          </CircleAlertIcon>
        )}
        {!readOnly && (
          <DropdownMenu open={menuOpen} onOpenChange={setMenuOpen}>
            <DropdownMenuTrigger
              className="nodrag -my-0.5 rounded p-0.5 text-muted-foreground opacity-0 outline-none group-hover/block:opacity-100 hover:bg-muted focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring/50 data-[state=open]:opacity-100"
              aria-label={t('editor.block.menu')}
              data-testid="block-menu"
              onClick={(event) => event.stopPropagation()}
            >
              <EllipsisIcon className="size-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" onClick={(event) => event.stopPropagation()}>
              <DropdownMenuItem onSelect={() => edit((bot) => duplicateBlock(bot, block.id).bot)}>
                <CopyIcon /> {t('editor.duplicate')}
              </DropdownMenuItem>
              <DropdownMenuItem
                variant="destructive"
                onSelect={() => edit((bot) => deleteBlock(bot, block.id))}
              >
                <Trash2Icon /> {t('editor.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      {items.length > 0 && (
        <ul className="mt-2 flex flex-col gap-1.5">
          {items.map((item) => (
            <li
              key={item.id}
              data-testid="block-item-entry"
              className="relative rounded-md border bg-muted/50 px-2 py-1 text-xs"
            >
              <span className="block truncate">
                {itemSummary(block, item, variables) || itemChoiceLabel(block.type, item) || (
                  <span className="text-muted-foreground">{t('editor.block.emptyItem')}</span>
                )}
              </span>
              <SourceHandle
                id={itemHandleId(block.id, item.id)}
                position={Position.Right}
                className={handleClass}
                style={{ right: -24 }}
                data-testid="item-handle"
                title={readOnly ? undefined : handleHint}
                isConnectable={!readOnly}
              />
            </li>
          ))}
        </ul>
      )}
      {(items.length === 0 || showDefaultHandle) && (
        <>
          {items.length > 0 && (
            <p className="mt-1.5 text-right text-xs text-muted-foreground">
              {t('editor.block.defaultPath')}
            </p>
          )}
          <SourceHandle
            id={blockHandleId(block.id)}
            position={Position.Right}
            className={handleClass}
            style={{
              right: -18,
              top: items.length > 0 ? 'auto' : '50%',
              bottom: items.length > 0 ? 2 : 'auto',
            }}
            data-testid="block-handle"
            title={readOnly ? undefined : handleHint}
            isConnectable={!readOnly}
          />
        </>
      )}
      {block.timeout && (
        <div className="relative mt-1.5 flex items-center justify-end gap-1 text-xs text-muted-foreground">
          <TimerIcon aria-hidden className="size-3" />
          <span data-testid="timeout-label">
            {t('editor.replyTimeout.exit', { after: timeoutText(block.timeout.seconds, t) })}
          </span>
          <SourceHandle
            id={timeoutHandleId(block.id)}
            position={Position.Right}
            className={handleClass}
            style={{ right: -18 }}
            data-testid="timeout-handle"
            title={readOnly ? undefined : handleHint}
            isConnectable={!readOnly}
          />
        </div>
      )}
      {/* Where an edge into this block ends; edges are drawn onto the block itself. */}
      <Handle
        type="target"
        id={blockTargetHandleId(block.id)}
        position={Position.Left}
        className="!pointer-events-none !size-2 !min-w-0 !border-0 !bg-transparent"
        style={{ left: -10, top: 18 }}
        isConnectableStart={false}
        isConnectable={!readOnly}
      />
    </div>
  )
}

/** "30 s", "5 min": a reply timeout as the "No reply" exit shows it. */
function timeoutText(
  seconds: number,
  t: (key: string, options?: Record<string, unknown>) => string
) {
  return seconds >= 60 && seconds % 60 === 0
    ? t('editor.replyTimeout.inMinutes', { amount: seconds / 60 })
    : t('editor.replyTimeout.inSeconds', { amount: seconds })
}
