import {
  useCallback,
  type ComponentProps,
  type Dispatch,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
  type SetStateAction,
} from 'react'
import {
  applyNodeChanges,
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  getBezierPath,
  ReactFlow,
  type EdgeChange,
  type EdgeProps,
  type FitViewOptions,
  type Node as FlowNode,
  type NodeChange,
  type FinalConnectionState,
  type ReactFlowProps,
  useStoreApi,
} from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useStore, type StoreApi } from 'zustand'
import { useTranslation } from 'react-i18next'
import { XIcon } from 'lucide-react'
import { ConnectHint } from '~/features/canvas/connect_hint'
import {
  KeyboardConnectProvider,
  type ConnectSource,
  type ConnectTarget,
} from '~/features/canvas/keyboard_connect'
import type { EditorSurface } from './item_settings'

/**
 * The React Flow canvas both editors draw their graph on (groups of blocks, nodes): the
 * selection of edges, the moves of nodes, the read-only mode, the keyboard's and the
 * click's ways to connect, the controls. What the graph is, and what connecting, deleting
 * or dropping does to it, stays with each editor.
 */

/** What the canvas needs of an editor store. */
export interface FlowCanvasState {
  readOnly: boolean
  selection: { edges: Record<string, true> }
  setSelection: (selection: { edges?: string[] }) => void
}

const SURFACE = {
  bot: {
    testId: 'editor-canvas',
    keyboardHint: 'editorShell.keyboard.groupHint',
    pending: 'editorCanvas.connect.pending',
  },
  workflow: {
    testId: 'workflow-canvas',
    keyboardHint: 'editorShell.keyboard.nodeHint',
    pending: 'editorCanvas.connect.nodePending',
  },
} as const

/** The output a connection starts from: a node and one of its source handles. */
export interface SourceHandle {
  nodeId: string
  id?: string | null
}

/** The element under the pointer where a drag was let go (mouse or touch). */
function elementAtRelease(event: MouseEvent | TouchEvent) {
  const point = 'changedTouches' in event ? event.changedTouches[0] : event
  return point ? document.elementFromPoint(point.clientX, point.clientY) : null
}

export function FlowCanvas<S extends FlowCanvasState>({
  surface,
  store,
  testId = SURFACE[surface].testId,
  setNodes,
  afterNodeChanges,
  keyboardTargets,
  onKeyboardPick,
  fitViewOptions,
  controls,
  dropTypes,
  onDrop,
  onReleaseOver,
  onClickConnect,
  onNodeOpen,
  onKeyDown,
  overlay,
  children,
  flowLayer,
  ...flow
}: {
  surface: EditorSurface
  store: StoreApi<S>
  /** The canvas's test id, when not the surface's own (a second canvas on the page). */
  testId?: string
  setNodes: Dispatch<SetStateAction<FlowNode[]>>
  /** What the editor does to its nodes after React Flow's changes, given the ids measured. */
  afterNodeChanges?: (nodes: FlowNode[], measured: Set<string>) => FlowNode[]
  keyboardTargets: (source: ConnectSource) => ConnectTarget[]
  onKeyboardPick: (source: ConnectSource, target: ConnectTarget) => void
  fitViewOptions: FitViewOptions
  controls?: ComponentProps<typeof Controls>
  /** What may be dropped on the canvas (the sidebar's drag types). */
  dropTypes: readonly string[]
  onDrop: (event: DragEvent<HTMLDivElement>) => void
  /**
   * A connection dragged from `source` and let go over `element`, not near an input dot:
   * builders let go over the group, block or node they mean, and that connects too.
   */
  onReleaseOver: (source: SourceHandle, element: Element | null) => void
  /**
   * The second click of a click-to-connect, on a node (outside its handles): connects
   * `source` to it, or answers false when the node takes no connection (the wait goes on).
   */
  onClickConnect: (source: SourceHandle, node: FlowNode, event: ReactMouseEvent) => boolean
  /** A click on a node while no click-to-connect waits. */
  onNodeOpen?: (node: FlowNode) => void
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void
  /** Over the canvas, under the connect hint (a loading skeleton). */
  overlay?: ReactNode
  /** Over the canvas, over the connect hint (an empty state). */
  children?: ReactNode
  /** Drawn in the flow's own viewport, moving with it (the co-editors' cursors). */
  flowLayer?: ReactNode
} & Omit<
  ReactFlowProps,
  'onNodesChange' | 'onEdgesChange' | 'onConnectEnd' | 'onNodeClick' | 'children' | 'fitViewOptions'
>) {
  const { t } = useTranslation()
  const readOnly = useStore(store, (state) => state.readOnly)
  const flowStore = useStoreApi()

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      // Removals go through onDelete (one undo step for what is deleted together).
      const kept = changes.filter((change) => change.type !== 'remove')
      const measured = new Set<string>()
      for (const change of kept) if (change.type === 'dimensions') measured.add(change.id)
      setNodes((previous) => {
        const next = applyNodeChanges(kept, previous)
        return afterNodeChanges ? afterNodeChanges(next, measured) : next
      })
    },
    [setNodes, afterNodeChanges]
  )

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const selects = changes.filter((change) => change.type === 'select')
      if (selects.length === 0) return
      const current = { ...store.getState().selection.edges }
      for (const change of selects) {
        if (change.selected) current[change.id] = true
        else delete current[change.id]
      }
      store.getState().setSelection({ edges: Object.keys(current) })
    },
    [store]
  )

  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromHandle || state.fromHandle.type !== 'source') return
      onReleaseOver(state.fromHandle, elementAtRelease(event))
    },
    [onReleaseOver]
  )

  const onNodeClick = useCallback(
    (event: ReactMouseEvent, node: FlowNode) => {
      const pending = flowStore.getState().connectionClickStartHandle
      if (!pending || pending.type !== 'source') return onNodeOpen?.(node)
      if ((event.target as Element).closest('.react-flow__handle')) return
      if (onClickConnect(pending, node, event)) {
        flowStore.setState({ connectionClickStartHandle: null })
      }
    },
    [flowStore, onClickConnect, onNodeOpen]
  )

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (readOnly || !Array.from(event.dataTransfer.types).some((type) => dropTypes.includes(type)))
      return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'move'
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
        fitViewOptions={fitViewOptions}
        hint={t(SURFACE[surface].keyboardHint)}
      >
        <ReactFlow
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnectEnd={onConnectEnd}
          onNodeClick={onNodeClick}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
          minZoom={0.1}
          maxZoom={2}
          fitViewOptions={fitViewOptions}
          {...flow}
        >
          <Background gap={20} />
          <Controls showInteractive={false} {...controls} />
          {flowLayer}
        </ReactFlow>
      </KeyboardConnectProvider>
      {overlay}
      {!readOnly && <ConnectHint message={t(SURFACE[surface].pending)} />}
      {children}
    </div>
  )
}

/**
 * A bezier edge, with a delete button at its middle while selected (write mode) and, when
 * not, what the editor marks it with (`badge`).
 */
export function EditorEdge({
  readOnly,
  deleteLabel,
  onDelete,
  idleStroke,
  strokeDasharray,
  badge,
  ...edge
}: EdgeProps & {
  readOnly: boolean
  deleteLabel: string
  onDelete: () => void
  /** The edge's colour while not selected (an attachment's). */
  idleStroke?: string
  strokeDasharray?: string
  /** What the edge shows at its middle while it has no delete button (a loop's label). */
  badge?: (position: { x: number; y: number }) => ReactNode
}) {
  const { id, selected, markerEnd } = edge
  const [path, labelX, labelY] = getBezierPath(edge)
  const deletable = selected && !readOnly
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{
          strokeWidth: selected ? 3 : 2,
          stroke: selected ? 'var(--primary)' : idleStroke,
          strokeDasharray,
        }}
      />
      {!deletable && badge?.({ x: labelX, y: labelY })}
      {deletable && (
        <EdgeLabelRenderer>
          <button
            type="button"
            data-testid="delete-edge"
            aria-label={deleteLabel}
            className="nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border bg-background shadow outline-none hover:bg-destructive hover:text-white focus-visible:ring-2 focus-visible:ring-ring/50"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            onClick={onDelete}
          >
            <XIcon className="size-3.5" />
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  )
}
