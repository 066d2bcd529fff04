import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { Handle, useNodeId, useReactFlow, type FitViewOptions } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { cn } from '~/lib/utils'

/**
 * Connecting with the keyboard only (docs/editor.md "Connecting"): an output dot takes the
 * focus (Tab); Enter or Space on it opens the list of what it can connect to; arrows, Tab
 * or Home/End move through it while the canvas shows the target, Enter connects, Escape
 * gives up. Focus then goes back to the dot. Screen readers hear the list as a listbox
 * whose active option is announced as it moves.
 */

export interface ConnectSource {
  nodeId: string
  handleId: string | null
}

export interface ConnectTarget {
  /** The node (bot group, workflow node) the edge would lead into. */
  nodeId: string
  label: string
}

interface Pending {
  source: ConnectSource
  origin: HTMLElement
}

const KeyboardConnectContext = createContext<((pending: Pending) => void) | null>(null)

/** The canvas node being pointed at while picking: outlined like a focused node. */
const TARGET_CLASS = ['ring-4', 'ring-primary/60', 'rounded-xl']

export function KeyboardConnectProvider({
  children,
  targetsFor,
  onPick,
  fitViewOptions,
  hint,
}: {
  children: ReactNode
  /** What the source may connect to, in reading order. */
  targetsFor: (source: ConnectSource) => ConnectTarget[]
  onPick: (source: ConnectSource, target: ConnectTarget) => void
  fitViewOptions?: FitViewOptions
  /** What the list asks for ("Pick the group to connect to"). */
  hint: string
}) {
  const [pending, setPending] = useState<Pending | null>(null)
  return (
    <KeyboardConnectContext.Provider value={setPending}>
      {children}
      {pending && (
        <TargetPicker
          key={`${pending.source.nodeId}:${pending.source.handleId}`}
          pending={pending}
          targets={targetsFor(pending.source)}
          hint={hint}
          fitViewOptions={fitViewOptions}
          onClose={(target) => {
            setPending(null)
            if (target) onPick(pending.source, target)
            // Back where the builder was, so the next dot is one Tab away.
            if (pending.origin.isConnected) pending.origin.focus()
          }}
        />
      )}
    </KeyboardConnectContext.Provider>
  )
}

function TargetPicker({
  pending,
  targets,
  hint,
  fitViewOptions,
  onClose,
}: {
  pending: Pending
  targets: ConnectTarget[]
  hint: string
  fitViewOptions?: FitViewOptions
  onClose: (target: ConnectTarget | null) => void
}) {
  const { t } = useTranslation()
  const { fitView } = useReactFlow()
  const listId = useId()
  const [index, setIndex] = useState(0)
  const listRef = useRef<HTMLUListElement>(null)
  const current = targets[index]

  useEffect(() => {
    listRef.current?.focus()
  }, [])

  // The canvas shows the source and the target, the target outlined.
  useEffect(() => {
    if (!current) return
    const element = document.querySelector<HTMLElement>(
      `.react-flow__node[data-id="${CSS.escape(current.nodeId)}"]`
    )
    element?.classList.add(...TARGET_CLASS)
    void fitView({
      ...fitViewOptions,
      nodes: [{ id: pending.source.nodeId }, { id: current.nodeId }],
      duration: 150,
    })
    return () => element?.classList.remove(...TARGET_CLASS)
  }, [current, pending.source.nodeId, fitView, fitViewOptions])

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const last = targets.length - 1
    const move = (next: number) => {
      event.preventDefault()
      setIndex(Math.max(0, Math.min(last, next)))
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(index + 1)
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(index - 1)
    else if (event.key === 'Tab') move(event.shiftKey ? index - 1 : index + 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(last)
    else if (event.key === 'Escape') {
      event.preventDefault()
      onClose(null)
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onClose(current ?? null)
    }
    // React Flow moves selected nodes with the arrows: the list keeps its keys.
    event.stopPropagation()
  }

  const optionId = (i: number) => `${listId}-${i}`
  return (
    <div className="pointer-events-none absolute top-12 left-1/2 z-30 w-72 max-w-[calc(100%-1.5rem)] -translate-x-1/2">
      <div className="pointer-events-auto rounded-xl border bg-popover p-2 text-popover-foreground shadow-lg">
        <p id={`${listId}-label`} className="px-1 pb-1.5 text-xs text-muted-foreground">
          {targets.length > 0 ? hint : t('editorShell.keyboard.none')}
        </p>
        <ul
          ref={listRef}
          role="listbox"
          tabIndex={0}
          data-testid="connect-targets"
          aria-labelledby={`${listId}-label`}
          aria-activedescendant={current ? optionId(index) : undefined}
          aria-describedby={`${listId}-keys`}
          className="max-h-56 overflow-y-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onClose(null)
          }}
        >
          {targets.map((target, i) => (
            <li
              key={target.nodeId}
              id={optionId(i)}
              role="option"
              aria-selected={i === index}
              data-testid="connect-target"
              data-node-id={target.nodeId}
              className={cn(
                'cursor-pointer truncate rounded-md px-2 py-1 text-sm',
                i === index && 'bg-accent text-accent-foreground'
              )}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onClose(target)}
            >
              {target.label}
            </li>
          ))}
        </ul>
        <p id={`${listId}-keys`} className="px-1 pt-1.5 text-[11px] text-muted-foreground">
          {t('editorShell.keyboard.keys')}
        </p>
      </div>
    </div>
  )
}

/**
 * An output dot of a node that the keyboard can reach: Enter or Space opens the list of
 * targets (see KeyboardConnectProvider). Drags and clicks work as on any React Flow handle.
 */
export function SourceHandle({
  isConnectable = true,
  ...props
}: Omit<ComponentProps<typeof Handle>, 'type'>) {
  const { t } = useTranslation()
  const nodeId = useNodeId()
  const start = useContext(KeyboardConnectContext)
  const keyboard = isConnectable && !!start && !!nodeId
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key !== 'Enter' && event.key !== ' ') return
      // The node around it would take Enter as "select" or "open".
      event.preventDefault()
      event.stopPropagation()
      start?.({
        source: { nodeId: nodeId!, handleId: props.id ?? null },
        origin: event.currentTarget,
      })
    },
    [start, nodeId, props.id]
  )
  const keyboardProps = useMemo(
    () =>
      keyboard
        ? {
            'tabIndex': 0,
            'role': 'button',
            'aria-label': t('editorShell.keyboard.handle'),
            'aria-haspopup': 'listbox' as const,
            onKeyDown,
          }
        : {},
    [keyboard, onKeyDown, t]
  )
  return (
    <Handle
      type="source"
      isConnectable={isConnectable}
      {...props}
      {...keyboardProps}
      className={cn(
        props.className,
        keyboard && 'outline-none focus-visible:ring-4 focus-visible:ring-ring/60'
      )}
    />
  )
}
