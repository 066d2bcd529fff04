import { DIFF_EDGE_CLASSES } from '~/features/editor_shell/diff_styles'
import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react'
import {
  applyNodeChanges,
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  getBezierPath,
  ReactFlow,
  useNodesInitialized,
  useReactFlow,
  useStoreApi,
  type Connection,
  type FinalConnectionState,
  type Edge as FlowEdge,
  type EdgeChange,
  type EdgeProps,
  type EdgeTypes,
  type IsValidConnection,
  type Node as FlowNode,
  type NodeChange,
  type NodeTypes,
  type OnDelete,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useTranslation } from 'react-i18next'
import { ConnectHint } from '~/features/canvas/connect_hint'
import { useInitialFit } from '~/features/canvas/use_initial_fit'
import {
  KeyboardConnectProvider,
  type ConnectSource,
  type ConnectTarget,
} from '~/features/canvas/keyboard_connect'
import { RepeatIcon, TriangleAlertIcon, WebhookIcon, XIcon } from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import { findLoopEdges } from '#shared/workflow/loop_edges'
import { Skeleton } from '~/components/ui/skeleton'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import {
  addNode,
  attach,
  connect,
  deleteEdges,
  deleteNodes,
  moveNodes,
  newNode,
} from './workflow_editing'
import { isAttachable, isTrigger, NEW_NODE_MIME, useWorkflowPlugins } from './workflow_plugins'
import { WorkflowNode } from './workflow_node'
import {
  ATTACHED_HANDLE,
  branchHandleId,
  IN_HANDLE,
  OUT_HANDLE,
  parseSourceHandle,
  slotHandleId,
} from './node_summary'
import type { WorkflowEditorPlugin } from './types'

// Built once (DESIGN section 6): a new object each render would remount every node.
const nodeTypes: NodeTypes = { workflowNode: WorkflowNode }
const edgeTypes: EdgeTypes = { workflowEdge: WorkflowEdgeView }

/*
 * Size hints, so that React Flow can skip mounting off-screen nodes of large workflows.
 * Only there: with hints React Flow counts nodes as measured at once and fits the view
 * before the canvas itself has a size.
 */
const NODE_WIDTH_HINT = 240
const NODE_HEIGHT_HINT = 60
const LARGE_WORKFLOW_NODES = 60
const FIT_VIEW_OPTIONS = { maxZoom: 1, padding: 0.3 }
/* React Flow focuses the node's wrapper (arrow keys move it, Enter opens it): show it. */
const NODE_WRAPPER_CLASS =
  'rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2'

function reconcileNodes(
  previous: FlowNode[],
  blocks: readonly WorkflowBlock[],
  sizeHints: boolean
): FlowNode[] {
  const byId = new Map(previous.map((node) => [node.id, node]))
  const next = blocks.map((block): FlowNode => {
    const { x, y } = block.graphCoordinates
    const node = byId.get(block.id)
    if (node) {
      if (node.dragging || (node.position.x === x && node.position.y === y)) return node
      return { ...node, position: { x, y } }
    }
    return {
      id: block.id,
      type: 'workflowNode',
      position: { x, y },
      data: { nodeId: block.id },
      className: NODE_WRAPPER_CLASS,
      ...(sizeHints ? { initialWidth: NODE_WIDTH_HINT, initialHeight: NODE_HEIGHT_HINT } : {}),
    }
  })
  const same = next.length === previous.length && next.every((node, i) => node === previous[i])
  return same ? previous : next
}

/* The room a node takes when the palette places it (a node is 240 px wide). */
const NODE_STEP_X = 300
const NODE_STEP_Y = 140

/**
 * Where a node added without a drop point goes: right of the open node (or of the last
 * one added), else the given point; moved down until it covers no other node.
 */
export function placeNewNode(
  blocks: readonly WorkflowBlock[],
  fallback: { x: number; y: number },
  afterId?: string | null
) {
  const after = blocks.find((block) => block.id === afterId) ?? blocks[blocks.length - 1]
  let spot = after
    ? { x: after.graphCoordinates.x + NODE_STEP_X, y: after.graphCoordinates.y }
    : fallback
  for (let tries = 0; tries < 50; tries++) {
    const covered = blocks.some(
      (block) =>
        Math.abs(block.graphCoordinates.x - spot.x) < NODE_STEP_X - 40 &&
        Math.abs(block.graphCoordinates.y - spot.y) < NODE_STEP_Y - 20
    )
    if (!covered) return spot
    spot = { x: spot.x, y: spot.y + NODE_STEP_Y }
  }
  return spot
}

/** A fresh node of a plugin at a position, with the plugin's defaults and branches. */
export function nodeFromPlugin(plugin: WorkflowEditorPlugin, position: { x: number; y: number }) {
  return newNode(plugin.id, position, {
    options: plugin.defaults,
    conditions: plugin.defaultConditions,
  })
}

export function WorkflowCanvas({ testId = 'workflow-canvas' }: { testId?: string }) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const plugins = useWorkflowPlugins()
  const { screenToFlowPosition } = useReactFlow()
  const blocks = useWorkflowEditor((state) => state.history.present.blocks)
  const workflowEdges = useWorkflowEditor((state) => state.history.present.edges)
  const selectedEdges = useWorkflowEditor((state) => state.selection.edges)
  const readOnly = useWorkflowEditor((state) => state.readOnly)

  const [large] = useState(
    () => api.getState().history.present.blocks.length > LARGE_WORKFLOW_NODES
  )
  const [nodes, setNodes] = useState<FlowNode[]>(() =>
    reconcileNodes([], api.getState().history.present.blocks, large)
  )
  useEffect(() => {
    setNodes((previous) => reconcileNodes(previous, blocks, large))
  }, [blocks, large])

  /*
   * The first view shows the whole graph once the nodes are measured (React Flow's own
   * fitView ran before the canvas had its size). A large graph opens on its trigger at
   * full size instead: fitting hundreds of nodes would paint them all at once.
   */
  const [startViewport] = useState(() => {
    const { blocks: all } = api.getState().history.present
    const start = (all.find((block) => isTrigger(plugins.get(block.type))) ?? all[0])
      ?.graphCoordinates ?? { x: 0, y: 0 }
    return { x: 120 - start.x, y: 160 - start.y, zoom: 1 }
  })
  const nodesInitialized = useNodesInitialized()
  useInitialFit(!large, FIT_VIEW_OPTIONS)

  // Edges depend on which nodes exist, not on their options: typing in a form keeps them.
  const blockIds = useWorkflowEditor((state) =>
    state.history.present.blocks.map((block) => block.id).join(' ')
  )
  const diff = useWorkflowEditor((state) => state.diff)
  // Edges going back to an earlier node close a loop: labelled "loop" (a Loop node's way back).
  const loopEdges = useMemo(() => {
    const ids = blockIds.split(' ')
    const trigger = api
      .getState()
      .history.present.blocks.find((block) => isTrigger(plugins.get(block.type)))?.id
    const steps = workflowEdges.filter((edge) => !edge.isAttachment)
    return findLoopEdges(ids, steps, trigger)
  }, [api, plugins, blockIds, workflowEdges])
  const edges = useMemo<FlowEdge[]>(() => {
    const known = new Set(blockIds.split(' '))
    return workflowEdges.flatMap((edge): FlowEdge[] => {
      if (!known.has(edge.from.blockId) || !known.has(edge.to.blockId)) return []
      const attachment = edge.isAttachment === true
      return [
        {
          id: edge.id,
          type: 'workflowEdge',
          source: edge.from.blockId,
          sourceHandle: attachment
            ? slotHandleId(edge.attachmentName ?? '')
            : edge.from.conditionId
              ? branchHandleId(edge.from.conditionId)
              : OUT_HANDLE,
          target: edge.to.blockId,
          targetHandle: attachment ? ATTACHED_HANDLE : IN_HANDLE,
          selected: !!selectedEdges[edge.id],
          data: { attachment, loop: loopEdges.has(edge.id) },
          ...(diff?.[edge.id] ? { className: DIFF_EDGE_CLASSES[diff[edge.id]] } : {}),
        },
      ]
    })
  }, [blockIds, workflowEdges, selectedEdges, diff, loopEdges])

  const onNodesChange = useCallback((changes: NodeChange[]) => {
    // Removals go through onDelete (one undo step for nodes and edges together).
    const kept = changes.filter((change) => change.type !== 'remove')
    setNodes((previous) => applyNodeChanges(kept, previous))
  }, [])

  const onSelectionChange = useCallback(
    ({ nodes: selectedNodes }: { nodes: FlowNode[] }) => {
      api.getState().setSelection({ nodes: selectedNodes.map((node) => node.id) })
    },
    [api]
  )

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const selects = changes.filter((change) => change.type === 'select')
      if (selects.length === 0) return
      const current = { ...api.getState().selection.edges }
      for (const change of selects) {
        if (change.selected) current[change.id] = true
        else delete current[change.id]
      }
      api.getState().setSelection({ edges: Object.keys(current) })
    },
    [api]
  )

  const onDelete: OnDelete = useCallback(
    ({ nodes: removedNodes, edges: removedEdges }) => {
      api.getState().edit((doc) =>
        deleteEdges(
          deleteNodes(
            doc,
            removedNodes.map((node) => node.id)
          ),
          removedEdges.map((edge) => edge.id)
        )
      )
    },
    [api]
  )

  const pluginOf = useCallback(
    (nodeId: string) => {
      const block = api.getState().history.present.blocks.find((found) => found.id === nodeId)
      return block ? plugins.get(block.type) : undefined
    },
    [api, plugins]
  )

  const isValidConnection: IsValidConnection = useCallback(
    (connection) => {
      if (connection.source === connection.target) return false
      const handle = parseSourceHandle(connection.sourceHandle)
      if (!handle) return false
      const target = pluginOf(connection.target)
      if (handle.kind === 'slot') {
        const slot = pluginOf(connection.source)?.attachments.find((s) => s.name === handle.slot)
        return (
          !!slot &&
          connection.targetHandle === ATTACHED_HANDLE &&
          !!target &&
          slot.accepts.includes(target.category)
        )
      }
      return connection.targetHandle === IN_HANDLE && !isTrigger(target) && !isAttachable(target)
    },
    [pluginOf]
  )

  const onConnect = useCallback(
    (connection: Connection) => {
      if (!isValidConnection(connection)) return
      const handle = parseSourceHandle(connection.sourceHandle)
      if (!handle) return
      const { edit } = api.getState()
      if (handle.kind === 'slot') {
        const slot = pluginOf(connection.source)?.attachments.find((s) => s.name === handle.slot)
        if (slot) edit((doc) => attach(doc, connection.source, slot, connection.target).doc)
        return
      }
      const conditionId = handle.kind === 'branch' ? handle.conditionId : undefined
      edit(
        (doc) => connect(doc, { blockId: connection.source, conditionId }, connection.target).doc
      )
    },
    [api, isValidConnection, pluginOf]
  )

  /** The connection a source handle makes with a node: into its input, or as an attachment. */
  const connectToNode = useCallback(
    (source: { nodeId: string; id?: string | null }, target: string) => {
      const handle = parseSourceHandle(source.id ?? null)
      if (!handle) return
      onConnect({
        source: source.nodeId,
        sourceHandle: source.id ?? null,
        target,
        targetHandle: handle.kind === 'slot' ? ATTACHED_HANDLE : IN_HANDLE,
      })
    },
    [onConnect]
  )

  /*
   * React Flow connects only when the pointer is let go near an input dot; builders let go
   * over the node they mean: that connects too, when the node can take it.
   */
  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromHandle || state.fromHandle.type !== 'source') return
      const point = 'changedTouches' in event ? event.changedTouches[0] : event
      if (!point) return
      const node = document
        .elementFromPoint(point.clientX, point.clientY)
        ?.closest<HTMLElement>('[data-testid="workflow-node"][data-node-id]')
      if (node) connectToNode(state.fromHandle, node.dataset.nodeId!)
    },
    [connectToNode]
  )

  const flow = useStoreApi()
  /** A click on a node opens it, or ends a click-to-connect started on a handle. */
  const onNodeClick = useCallback(
    (event: ReactMouseEvent, node: FlowNode) => {
      const pending = flow.getState().connectionClickStartHandle
      if (!pending || pending.type !== 'source') {
        api.getState().openNode(node.id)
        return
      }
      if ((event.target as Element).closest('.react-flow__handle')) return
      flow.setState({ connectionClickStartHandle: null })
      connectToNode(pending, node.id)
    },
    [api, flow, connectToNode]
  )

  const onNodeDragStop = useCallback(
    (_event: unknown, _node: FlowNode, dragged: FlowNode[]) => {
      api.getState().edit((doc) =>
        moveNodes(
          doc,
          dragged.map((node) => ({ id: node.id, position: node.position }))
        )
      )
    },
    [api]
  )

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (readOnly || !Array.from(event.dataTransfer.types).includes(NEW_NODE_MIME)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'move'
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    if (readOnly) return
    const pluginId = event.dataTransfer.getData(NEW_NODE_MIME)
    if (!pluginId) return
    event.preventDefault()
    const plugin = plugins.get(pluginId)
    if (!plugin || plugin.locked) return
    const position = screenToFlowPosition({ x: event.clientX, y: event.clientY })
    const block = nodeFromPlugin(plugin, position)
    api.getState().edit((doc) => addNode(doc, block))
    api.getState().openNode(block.id)
  }

  /** Keyboard connections: the nodes that can take an edge from this output, in order. */
  const keyboardTargets = useCallback(
    (source: ConnectSource): ConnectTarget[] => {
      const handle = parseSourceHandle(source.handleId)
      if (!handle) return []
      const targetHandle = handle.kind === 'slot' ? ATTACHED_HANDLE : IN_HANDLE
      return api
        .getState()
        .history.present.blocks.filter((block) =>
          isValidConnection({
            source: source.nodeId,
            sourceHandle: source.handleId,
            target: block.id,
            targetHandle,
          })
        )
        .map((block) => ({
          nodeId: block.id,
          label: block.title || plugins.get(block.type)?.name || block.type,
        }))
    },
    [api, isValidConnection, plugins]
  )
  const onKeyboardPick = useCallback(
    (source: ConnectSource, target: ConnectTarget) =>
      connectToNode({ nodeId: source.nodeId, id: source.handleId }, target.nodeId),
    [connectToNode]
  )

  /** Enter on a focused node opens its settings (React Flow focuses the node's wrapper). */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Enter') return
    const target = event.target as HTMLElement
    if (!target.classList.contains('react-flow__node')) return
    const id = target.getAttribute('data-id')
    if (id) api.getState().openNode(id)
  }

  return (
    <div
      data-testid={testId}
      className="relative h-full w-full"
      onDragOver={onDragOver}
      onDrop={onDrop}
      onKeyDown={onKeyDown}
    >
      <KeyboardConnectProvider
        targetsFor={keyboardTargets}
        onPick={onKeyboardPick}
        fitViewOptions={FIT_VIEW_OPTIONS}
        hint={t('editorShell.keyboard.nodeHint')}
      >
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onDelete={onDelete}
          onSelectionChange={onSelectionChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onNodeDragStop={onNodeDragStop}
          onNodeClick={onNodeClick}
          onPaneClick={() => api.getState().openNode(null)}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesReconnectable={false}
          deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
          minZoom={0.1}
          maxZoom={2}
          fitViewOptions={FIT_VIEW_OPTIONS}
          defaultViewport={large ? startViewport : undefined}
          onlyRenderVisibleElements={large}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
        </ReactFlow>
      </KeyboardConnectProvider>
      {blocks.length > 0 && !nodesInitialized && <CanvasSkeleton />}
      {!readOnly && <ConnectHint message={t('editorCanvas.connect.nodePending')} />}
      <CanvasHints blocks={blocks} plugins={plugins} readOnly={readOnly} />
    </div>
  )
}

/** Shown while React Flow measures the nodes (they stay hidden until then). */
function CanvasSkeleton() {
  return (
    <div
      data-testid="canvas-loading"
      aria-hidden
      className="pointer-events-none absolute inset-0 flex items-center justify-center gap-16"
    >
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} className="h-16 w-60 rounded-xl" />
      ))}
    </div>
  )
}

/** The empty state, and a note when the graph has no trigger or several. */
function CanvasHints({
  blocks,
  plugins,
  readOnly,
}: {
  blocks: readonly WorkflowBlock[]
  plugins: ReadonlyMap<string, WorkflowEditorPlugin>
  readOnly: boolean
}) {
  const { t } = useTranslation()
  if (blocks.length === 0) {
    return (
      <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6">
        <div
          data-testid="canvas-empty"
          className="flex max-w-sm flex-col items-center gap-3 rounded-xl border border-dashed bg-background/90 px-6 py-8 text-center shadow-sm"
        >
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <WebhookIcon aria-hidden className="size-6" />
          </span>
          <h2 className="text-base font-semibold">{t('workflowEditor.canvas.emptyTitle')}</h2>
          <p className="text-sm text-muted-foreground">
            {readOnly
              ? t('workflowEditor.canvas.emptyReadOnly')
              : t('workflowEditor.canvas.emptyDescription')}
          </p>
        </div>
      </div>
    )
  }
  const triggers = blocks.filter(
    (block) => !block.isDisabled && isTrigger(plugins.get(block.type))
  ).length
  if (triggers === 1 || readOnly) return null
  return (
    <div className="pointer-events-none absolute top-3 left-1/2 z-10 -translate-x-1/2">
      <p
        role="status"
        data-testid="canvas-trigger-hint"
        className="flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs text-muted-foreground shadow-sm"
      >
        <TriangleAlertIcon aria-hidden className="size-3.5 text-amber-500" />
        {triggers === 0
          ? t('workflowEditor.canvas.noTrigger')
          : t('workflowEditor.canvas.manyTriggers')}
      </p>
    </div>
  )
}

/** A bezier edge, dashed for attachments, with a delete button while selected. */
function WorkflowEdgeView({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  selected,
  markerEnd,
  data,
}: EdgeProps) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const [path, labelX, labelY] = getBezierPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
  })
  const { attachment, loop } = (data ?? {}) as { attachment?: boolean; loop?: boolean }
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{
          strokeWidth: selected ? 3 : 2,
          stroke: selected ? 'var(--primary)' : attachment ? '#8b5cf6' : undefined,
          strokeDasharray: attachment ? '6 4' : undefined,
        }}
      />
      {loop && !(selected && !readOnly) && (
        <EdgeLabelRenderer>
          <span
            data-testid="loop-edge-label"
            data-edge-id={id}
            className="nodrag nopan pointer-events-none absolute flex items-center gap-1 rounded-full border bg-background px-1.5 py-0.5 text-[10px] font-medium text-muted-foreground shadow-sm"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            <RepeatIcon className="size-3" aria-hidden />
            {t('workflowEditor.canvas.loopEdge')}
          </span>
        </EdgeLabelRenderer>
      )}
      {selected && !readOnly && (
        <EdgeLabelRenderer>
          <button
            type="button"
            data-testid="delete-edge"
            aria-label={t('workflowEditor.canvas.deleteEdge')}
            className="nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border bg-background shadow outline-none hover:bg-destructive hover:text-white focus-visible:ring-2 focus-visible:ring-ring/50"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            onClick={() => api.getState().edit((doc) => deleteEdges(doc, [id]))}
          >
            <XIcon className="size-3.5" />
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  )
}
