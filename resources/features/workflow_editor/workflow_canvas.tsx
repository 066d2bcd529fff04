import { DIFF_EDGE_CLASSES } from '~/features/editor_shell/diff_styles'
import { CoeditCanvasLayer } from '~/features/editor_shell/coedit_ui'
import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  type DragEvent,
  type KeyboardEvent,
} from 'react'
import {
  EdgeLabelRenderer,
  useNodesInitialized,
  useReactFlow,
  type Connection,
  type Edge as FlowEdge,
  type EdgeProps,
  type EdgeTypes,
  type IsValidConnection,
  type Node as FlowNode,
  type NodeTypes,
  type OnDelete,
} from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { useInitialFit } from '~/features/canvas/use_initial_fit'
import type { ConnectSource, ConnectTarget } from '~/features/canvas/keyboard_connect'
import { EditorEdge, FlowCanvas, type SourceHandle } from '~/features/editor_shell/flow_canvas'
import { RepeatIcon } from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import { findLoopEdges } from '#shared/workflow/loop_edges'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { addNode, attach, connect, deleteEdges, deleteNodes, moveNodes } from './workflow_editing'
import { isAttachable, isTrigger, NEW_NODE_MIME, useWorkflowPlugins } from './workflow_plugins'
import { WorkflowNode } from './workflow_node'
import { CanvasHints, CanvasSkeleton } from './canvas_hints'
import { nodeFromPlugin } from './node_placement'
import {
  ATTACHED_HANDLE,
  branchHandleId,
  IN_HANDLE,
  OUT_HANDLE,
  parseSourceHandle,
  slotHandleId,
} from './node_summary'

// Built once (DESIGN section 6): a new object each render would remount every node.
const nodeTypes: NodeTypes = { workflowNode: WorkflowNode }
const edgeTypes: EdgeTypes = { workflowEdge: WorkflowEdgeView }
const DROP_TYPES = [NEW_NODE_MIME]

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

export function WorkflowCanvas({ testId = 'workflow-canvas' }: { testId?: string }) {
  const api = useWorkflowEditorApi()
  const plugins = useWorkflowPlugins()
  const { screenToFlowPosition } = useReactFlow()
  const blocks = useWorkflowEditor((state) => state.history.present.blocks)
  const workflowEdges = useWorkflowEditor((state) => state.history.present.edges)
  const selectedEdges = useWorkflowEditor((state) => state.selection.edges)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const openNodeId = useWorkflowEditor((state) => state.openNodeId)

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

  const onSelectionChange = useCallback(
    ({ nodes: selectedNodes }: { nodes: FlowNode[] }) => {
      api.getState().setSelection({ nodes: selectedNodes.map((node) => node.id) })
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
    (source: SourceHandle, target: string) => {
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

  /** A connection let go over a node, not only on its input dot, when the node can take it. */
  const onReleaseOver = useCallback(
    (source: SourceHandle, element: Element | null) => {
      const node = element?.closest<HTMLElement>('[data-testid="workflow-node"][data-node-id]')
      if (node) connectToNode(source, node.dataset.nodeId!)
    },
    [connectToNode]
  )

  /** A click on a node opens it, or ends a click-to-connect started on a handle. */
  const onClickConnect = useCallback(
    (source: SourceHandle, node: FlowNode) => {
      connectToNode(source, node.id)
      return true
    },
    [connectToNode]
  )
  const onNodeOpen = useCallback((node: FlowNode) => api.getState().openNode(node.id), [api])

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
    <FlowCanvas
      surface="workflow"
      store={api}
      testId={testId}
      dropTypes={DROP_TYPES}
      onDrop={onDrop}
      onReleaseOver={onReleaseOver}
      onClickConnect={onClickConnect}
      onNodeOpen={onNodeOpen}
      onKeyDown={onKeyDown}
      keyboardTargets={keyboardTargets}
      onKeyboardPick={onKeyboardPick}
      nodes={nodes}
      nodeTypes={nodeTypes}
      setNodes={setNodes}
      edges={edges}
      edgeTypes={edgeTypes}
      onDelete={onDelete}
      onSelectionChange={onSelectionChange}
      onConnect={onConnect}
      isValidConnection={isValidConnection}
      onNodeDragStop={onNodeDragStop}
      onPaneClick={() => api.getState().openNode(null)}
      edgesReconnectable={false}
      fitViewOptions={FIT_VIEW_OPTIONS}
      defaultViewport={large ? startViewport : undefined}
      onlyRenderVisibleElements={large}
      proOptions={{ hideAttribution: true }}
      overlay={blocks.length > 0 && !nodesInitialized && <CanvasSkeleton />}
      flowLayer={<CoeditCanvasLayer editing={openNodeId} />}
    >
      <CanvasHints blocks={blocks} plugins={plugins} readOnly={readOnly} />
    </FlowCanvas>
  )
}

/** A bezier edge, dashed for attachments, with a delete button while selected. */
function WorkflowEdgeView(props: EdgeProps) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const { id, data } = props
  const { attachment, loop } = (data ?? {}) as { attachment?: boolean; loop?: boolean }
  return (
    <EditorEdge
      {...props}
      readOnly={readOnly}
      deleteLabel={t('workflowEditor.canvas.deleteEdge')}
      onDelete={() => api.getState().edit((doc) => deleteEdges(doc, [id]))}
      idleStroke={attachment ? '#8b5cf6' : undefined}
      strokeDasharray={attachment ? '6 4' : undefined}
      badge={
        loop
          ? ({ x, y }) => (
              <EdgeLabelRenderer>
                <span
                  data-testid="loop-edge-label"
                  data-edge-id={id}
                  className="nodrag nopan pointer-events-none absolute flex items-center gap-1 rounded-full border bg-background px-1.5 py-0.5 text-[10px] font-medium text-muted-foreground shadow-sm"
                  style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
                >
                  <RepeatIcon className="size-3" aria-hidden />
                  {t('workflowEditor.canvas.loopEdge')}
                </span>
              </EdgeLabelRenderer>
            )
          : undefined
      }
    />
  )
}
