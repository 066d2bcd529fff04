import { DIFF_EDGE_CLASSES } from '~/features/editor_shell/diff_styles'
import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  type DragEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react'
import {
  useReactFlow,
  type Connection,
  type FitViewOptions,
  type Edge as FlowEdge,
  type EdgeProps,
  type EdgeTypes,
  type Node as FlowNode,
  type NodeTypes,
  type OnDelete,
} from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { CoeditCanvasLayer } from '~/features/editor_shell/coedit_ui'
import { useInitialFit } from '~/features/canvas/use_initial_fit'
import type { ConnectSource, ConnectTarget } from '~/features/canvas/keyboard_connect'
import { EditorEdge, FlowCanvas, type SourceHandle } from '~/features/editor_shell/flow_canvas'
import {
  addGroup,
  connect,
  deleteEdge,
  deleteGroup,
  moveBlockToNewGroup,
  moveEvent,
  moveGroup,
  newBlock,
} from '#shared/bot/editing'
import type { BotV6, EdgeSource, EdgeTarget } from '#shared/bot/types'
import type { GraphNavigation } from '#shared/workspace_roles'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { MOVE_BLOCK_MIME, NEW_BLOCK_MIME, useEditorPlugins } from './editor_plugins'
import { blockInit, GroupNode } from './group_node'
import { StartNode } from './start_node'
import {
  blockOfTargetHandle,
  dropEstimatedHandles,
  EVENT_HANDLE,
  reconcileNodes,
  toFlowEdges,
} from './canvas_nodes'
import { sidebarInset, useSidebarState } from './sidebar_state'
import { NARROW_QUERY, useMediaQuery } from '~/hooks/use_media_query'

// Built once (DESIGN section 6): a new object each render would remount every node.
const nodeTypes: NodeTypes = { botGroup: GroupNode, start: StartNode }
const edgeTypes: EdgeTypes = { deletable: DeletableEdge }
/** What the canvas takes from the blocks sidebar: a new block, or one moved out of its group. */
const DROP_TYPES = [NEW_BLOCK_MIME, MOVE_BLOCK_MIME]

function parseSource(node: string, handle: string | null | undefined): EdgeSource | null {
  if (!handle || handle === EVENT_HANDLE) return { eventId: node }
  const [kind, blockId, itemId] = handle.split(':')
  if (kind === 'block' && blockId) return { blockId }
  if (kind === 'item' && blockId && itemId) return { blockId, itemId }
  if (kind === 'timeout' && blockId) return { blockId, timeout: true }
  return null
}

/**
 * Where an edge drawn onto a group lands: the group, or one of its blocks past the first
 * (an edge into the first block is an edge into the group).
 */
function edgeTarget(bot: BotV6, groupId: string, blockId?: string): EdgeTarget | null {
  const group = bot.groups.find((candidate) => candidate.id === groupId)
  if (!group) return null
  const index = blockId ? group.blocks.findIndex((block) => block.id === blockId) : -1
  return index > 0 ? { groupId, blockId } : { groupId }
}

/** The group (and block) at an element of the canvas, if any. */
function groupAt(element: Element | null) {
  const group = element?.closest<HTMLElement>('[data-testid="group-node"][data-group-id]')
  if (!group) return null
  const block = element?.closest<HTMLElement>('[data-testid="block-item"][data-block-id]')
  return {
    groupId: group.dataset.groupId!,
    blockId: block && group.contains(block) ? block.dataset.blockId : undefined,
  }
}

/*
 * Props React Flow compares by identity: the same objects every render, so a store change
 * of the editor does not push new options into React Flow's own store.
 */
const isValidConnection = (connection: FlowEdge | Connection) =>
  connection.source !== connection.target
/* Room kept around the fitted graph, beside the sidebar's width on the left. */
const FIT_MARGIN = 40
const px = (value: number) => `${value}px` as const
const fitViewOptionsFor = (inset: number): FitViewOptions => ({
  maxZoom: 1,
  padding: {
    top: px(FIT_MARGIN),
    right: px(FIT_MARGIN),
    bottom: px(FIT_MARGIN),
    left: px(inset + FIT_MARGIN),
  },
})

/** Above this many groups the editor opens on the start event instead of fitting everything. */
const LARGE_BOT_GROUPS = 40

export function GraphCanvas({ graphNavigation }: { graphNavigation: GraphNavigation }) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const plugins = useEditorPlugins()
  const { screenToFlowPosition } = useReactFlow()
  const groups = useBotEditor((state) => state.history.present.groups)
  const events = useBotEditor((state) => state.history.present.events)
  const botEdges = useBotEditor((state) => state.history.present.edges)
  const selectedEdges = useBotEditor((state) => state.selection.edges)
  const readOnly = useBotEditor((state) => state.readOnly)
  const openBlockId = useBotEditor((state) => state.openBlockId)
  const pinned = useSidebarState((state) => state.locked)
  const narrow = useMediaQuery(NARROW_QUERY)
  // The sidebar floats over the canvas: the controls and the fitted view keep clear of it.
  const inset = sidebarInset(!readOnly, pinned && !narrow)
  const fitViewOptions = useMemo(() => fitViewOptionsFor(inset), [inset])
  const controls = useMemo(
    () => ({ fitViewOptions, style: { left: inset } }),
    [fitViewOptions, inset]
  )

  // Large bots open on their start event at full size and render only what is on screen;
  // fitting 300 groups into view would paint every one of them at once.
  const [largeBot] = useState(() => api.getState().history.present.groups.length > LARGE_BOT_GROUPS)
  // On a phone, a whole bot fitted into 390 px is too small to read: it opens on its start
  // event at full size too, and the builder pans from there.
  const [openOnStart] = useState(
    () =>
      largeBot ||
      (typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches)
  )
  const [startViewport] = useState(() => {
    const start = api.getState().history.present.events[0]?.graphCoordinates ?? { x: 0, y: 0 }
    // Right of the blocks sidebar, which would hide it.
    return { x: inset + 60 - start.x, y: 160 - start.y, zoom: 1 }
  })
  const [nodes, setNodes] = useState<FlowNode[]>(() =>
    reconcileNodes([], api.getState().history.present, largeBot)
  )
  useEffect(() => {
    setNodes((previous) => reconcileNodes(previous, api.getState().history.present, largeBot))
  }, [groups, events, api, largeBot])

  useInitialFit(!openOnStart, fitViewOptions)

  const diff = useBotEditor((state) => state.diff)
  const edges = useMemo(() => {
    const flowEdges = toFlowEdges(groups, botEdges, selectedEdges)
    if (!diff) return flowEdges
    // A comparison canvas marks the connections that changed.
    return flowEdges.map((edge) =>
      diff[edge.id] ? { ...edge, className: DIFF_EDGE_CLASSES[diff[edge.id]] } : edge
    )
  }, [groups, botEdges, selectedEdges, diff])

  const onSelectionChange = useCallback(
    ({ nodes: selectedNodes }: { nodes: FlowNode[] }) => {
      api.getState().setSelection({
        groups: selectedNodes.filter((node) => node.type === 'botGroup').map((node) => node.id),
      })
    },
    [api]
  )

  const onDelete: OnDelete = useCallback(
    ({ nodes: removedNodes, edges: removedEdges }) => {
      api.getState().edit((bot) => {
        let next = bot
        for (const node of removedNodes)
          if (node.type === 'botGroup') next = deleteGroup(next, node.id)
        for (const edge of removedEdges) next = deleteEdge(next, edge.id)
        return next
      })
    },
    [api]
  )

  const onConnect = useCallback(
    (connection: Connection) => {
      const from = parseSource(connection.source, connection.sourceHandle)
      if (!from) return
      const blockId = blockOfTargetHandle(connection.targetHandle)
      api.getState().edit((bot) => {
        const to = edgeTarget(bot, connection.target, blockId)
        return to ? connect(bot, from, to) : bot
      })
    },
    [api]
  )

  /** An edge from a handle to a group or block chosen anywhere on it, not just on its dot. */
  const connectTo = useCallback(
    (
      source: { nodeId: string; id?: string | null },
      target: { groupId: string; blockId?: string }
    ) => {
      if (source.nodeId === target.groupId) return
      const from = parseSource(source.nodeId, source.id)
      if (!from) return
      api.getState().edit((bot) => {
        const to = edgeTarget(bot, target.groupId, target.blockId)
        return to ? connect(bot, from, to) : bot
      })
    },
    [api]
  )

  /** A connection let go over a group or block, not only on its dot (as in Typebot). */
  const onReleaseOver = useCallback(
    (source: SourceHandle, element: Element | null) => {
      const target = groupAt(element)
      if (target) connectTo(source, target)
    },
    [connectTo]
  )

  /** Click-to-connect ends with a click anywhere on a group or block, not only on its dot. */
  const onClickConnect = useCallback(
    (source: SourceHandle, node: FlowNode, event: ReactMouseEvent) => {
      if (node.type !== 'botGroup') return false
      const target = groupAt(document.elementFromPoint(event.clientX, event.clientY))
      connectTo(source, { groupId: node.id, blockId: target?.blockId })
      return true
    },
    [connectTo]
  )

  const onNodeDragStop = useCallback(
    (_event: unknown, _node: FlowNode, dragged: FlowNode[]) => {
      api.getState().edit((bot) => {
        let next = bot
        for (const node of dragged) {
          next =
            node.type === 'start'
              ? moveEvent(next, node.id, node.position)
              : moveGroup(next, node.id, node.position)
        }
        return next
      })
    },
    [api]
  )

  const onPaneClick = useCallback(() => api.getState().openBlock(null), [api])

  function isDraggedBlock(event: DragEvent) {
    return Array.from(event.dataTransfer.types).some((type) => DROP_TYPES.includes(type))
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    if (readOnly || !isDraggedBlock(event)) return
    event.preventDefault()
    const position = screenToFlowPosition({ x: event.clientX, y: event.clientY })
    const pluginId = event.dataTransfer.getData(NEW_BLOCK_MIME)
    const blockId = event.dataTransfer.getData(MOVE_BLOCK_MIME)
    const { edit, openBlock } = api.getState()
    if (pluginId) {
      const plugin = plugins.get(pluginId)
      if (!plugin || plugin.locked) return
      const block = newBlock(pluginId, blockInit(plugin))
      edit((bot) => addGroup(bot, { coordinates: position, block }).bot)
      openBlock(block.id)
    } else if (blockId) {
      edit((bot) => moveBlockToNewGroup(bot, blockId, position).bot)
    }
  }

  /** Keyboard connections: any group but the source's own, in the order of the bot. */
  const keyboardTargets = useCallback(
    (source: ConnectSource): ConnectTarget[] =>
      api
        .getState()
        .history.present.groups.filter((group) => group.id !== source.nodeId)
        .map((group) => ({ nodeId: group.id, label: group.title || t('editor.group.title') })),
    [api, t]
  )
  const onKeyboardPick = useCallback(
    (source: ConnectSource, target: ConnectTarget) =>
      connectTo({ nodeId: source.nodeId, id: source.handleId }, { groupId: target.nodeId }),
    [connectTo]
  )

  const trackpad = graphNavigation === 'trackpad'
  return (
    <FlowCanvas
      surface="bot"
      store={api}
      dropTypes={DROP_TYPES}
      onDrop={onDrop}
      onReleaseOver={onReleaseOver}
      onClickConnect={onClickConnect}
      keyboardTargets={keyboardTargets}
      onKeyboardPick={onKeyboardPick}
      nodes={nodes}
      setNodes={setNodes}
      afterNodeChanges={dropEstimatedHandles}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onDelete={onDelete}
      onSelectionChange={onSelectionChange}
      onConnect={onConnect}
      onNodeDragStop={onNodeDragStop}
      isValidConnection={isValidConnection}
      onPaneClick={onPaneClick}
      panOnScroll={trackpad}
      zoomOnScroll={!trackpad}
      zoomOnPinch
      panOnDrag={trackpad ? [1, 2] : true}
      selectionOnDrag={trackpad}
      fitViewOptions={fitViewOptions}
      controls={controls}
      defaultViewport={openOnStart ? startViewport : undefined}
      onlyRenderVisibleElements={largeBot}
      flowLayer={<CoeditCanvasLayer editing={openBlockId} />}
    />
  )
}

/** A bezier edge with a delete button at its middle while selected (write mode). */
function DeletableEdge(props: EdgeProps) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const readOnly = useBotEditor((state) => state.readOnly)
  return (
    <EditorEdge
      {...props}
      readOnly={readOnly}
      deleteLabel={t('editor.deleteEdge')}
      onDelete={() => api.getState().edit((bot) => deleteEdge(bot, props.id))}
    />
  )
}
