import { createContext, useContext, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CloudOffIcon, MousePointer2Icon, SparklesIcon } from 'lucide-react'
import {
  useOnViewportChange,
  useReactFlow,
  useStore as useFlowStore,
  ViewportPortal,
} from '@xyflow/react'
import type { StoreApi } from 'zustand'
import { useStore } from 'zustand'
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { cn } from '~/lib/utils'
import { reloadWithoutAsking } from '~/lib/use_autosave'
import type {
  CoeditEditorState,
  CoeditOptions,
  CoeditSession,
  CoeditState,
  Peer,
} from './coedit_session'

/**
 * What builders see of each other in a shared draft (docs/editor.md "Editing together"):
 * their avatars in the header (a click follows their view), their pointers on the canvas,
 * the block or node they edit outlined in their colour, and a notice while offline.
 */

export const CoeditContext = createContext<CoeditSession | null>(null)

const EMPTY: CoeditState = { status: 'live', peers: {}, following: null }
const noSession = {
  getState: () => EMPTY,
  subscribe: () => () => {},
} as unknown as StoreApi<CoeditState>

function useCoeditState<T>(selector: (state: CoeditState) => T): T {
  const session = useContext(CoeditContext)
  return useStore(session?.state ?? noSession, selector)
}

/** Joins the draft for the page's lifetime; null until started (and in browsers without SSE). */
export function useCoeditSession<S extends CoeditEditorState<D>, D>(
  options: Omit<CoeditOptions<S, D>, 'onRevoked'> & { enabled: boolean }
) {
  const [session, setSession] = useState<CoeditSession | null>(null)
  const { enabled, kind, id, userId, store } = options
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    let started: CoeditSession | null = null
    let left = false
    const leave = () => started?.stop()
    // Yjs and the session load after the editor is up: the editors' first load stays as it was.
    void import('./coedit_session').then(({ startCoedit }) => {
      if (left) return
      started = startCoedit<S, D>({
        ...options,
        // Their access ended: the page, loaded again, says what they may still see. Nothing
        // they have not saved can be saved now, so the browser does not ask them to stay.
        onRevoked: reloadWithoutAsking,
      })
      setSession(started)
      window.addEventListener('pagehide', leave)
    })
    return () => {
      left = true
      window.removeEventListener('pagehide', leave)
      started?.stop()
      setSession(null)
    }
    // The session lives as long as the draft's page: its other options are read once.
  }, [enabled, kind, id, userId, store])
  return session
}

function initials(name: string) {
  const words = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
  return ((words[0]?.[0] ?? '?') + (words[1]?.[0] ?? '')).toUpperCase()
}

/** One avatar per person, however many tabs they have open. */
function byPerson(peers: Record<string, Peer>) {
  const people = new Map<string, Peer>()
  for (const peer of Object.values(peers)) {
    const known = people.get(peer.userId)
    if (!known || known.seenAt < peer.seenAt) people.set(peer.userId, peer)
  }
  return [...people.values()]
}

/** The header's avatars of the others in this draft; a click follows (or stops following). */
export function CoeditPeers() {
  const { t } = useTranslation()
  const session = useContext(CoeditContext)
  const peers = useCoeditState((state) => state.peers)
  const following = useCoeditState((state) => state.following)
  const people = byPerson(peers)
  if (!session || people.length === 0) return null
  return (
    <ul className="flex items-center -space-x-1.5" aria-label={t('editorShell.coedit.people')}>
      {people.map((peer) => {
        if (peer.copilot) return <CopilotAvatar key={peer.userId} color={peer.color} />
        const followed = following === peer.clientId
        return (
          <li key={peer.userId}>
            <Tooltip>
              <TooltipTrigger asChild>
                <button
                  type="button"
                  data-testid="coedit-peer"
                  data-user-name={peer.name}
                  aria-pressed={followed}
                  aria-label={t(
                    followed ? 'editorShell.coedit.unfollow' : 'editorShell.coedit.follow',
                    {
                      name: peer.name,
                    }
                  )}
                  onClick={() => session.follow(followed ? null : peer.clientId)}
                  className={cn(
                    'flex size-7 items-center justify-center rounded-full border-2 border-background text-[11px] font-semibold text-white',
                    followed && 'ring-2 ring-offset-1 ring-offset-background'
                  )}
                  style={{ backgroundColor: peer.color, ['--tw-ring-color' as string]: peer.color }}
                >
                  {initials(peer.name)}
                </button>
              </TooltipTrigger>
              <TooltipContent>
                {t(followed ? 'editorShell.coedit.unfollow' : 'editorShell.coedit.follow', {
                  name: peer.name,
                })}
              </TooltipContent>
            </Tooltip>
          </li>
        )
      })}
    </ul>
  )
}

/**
 * The copilot, while (and a little after) it changes the draft: an avatar of its own, in
 * its colour, with no view to follow.
 */
function CopilotAvatar({ color }: { color: string }) {
  const { t } = useTranslation()
  return (
    <li>
      <Tooltip>
        <TooltipTrigger asChild>
          <span
            role="img"
            tabIndex={0}
            data-testid="coedit-peer"
            data-copilot="true"
            data-user-name={t('editorShell.coedit.copilot')}
            aria-label={t('editorShell.coedit.copilotEditing')}
            className="flex size-7 items-center justify-center rounded-full border-2 border-background text-white"
            style={{ backgroundColor: color }}
          >
            <SparklesIcon className="size-3.5" aria-hidden />
          </span>
        </TooltipTrigger>
        <TooltipContent>{t('editorShell.coedit.copilotEditing')}</TooltipContent>
      </Tooltip>
    </li>
  )
}

/** Under the header while the connection is down: edits are kept and sent when it is back. */
export function CoeditOfflineNotice() {
  const { t } = useTranslation()
  const session = useContext(CoeditContext)
  const status = useCoeditState((state) => state.status)
  // Joined and live: a marker for tools and tests (saves go the shared way from then on).
  if (status !== 'offline')
    return session && status === 'live' ? <span hidden data-testid="coedit-live" /> : null
  return (
    <div
      role="status"
      data-testid="coedit-offline"
      className="flex items-center justify-center gap-2 border-b border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <CloudOffIcon className="size-4" aria-hidden />
      {t('editorShell.coedit.offline')}
    </div>
  )
}

/**
 * Inside the canvas (a child of ReactFlow): sends this person's pointer, view and open
 * block or node; draws the others' pointers; outlines what they edit; follows the view of
 * the person followed. `editing` is the id of the block or node whose settings are open.
 */
export function CoeditCanvasLayer({ editing }: { editing: string | null }) {
  const session = useContext(CoeditContext)
  const peers = useCoeditState((state) => state.peers)
  const following = useCoeditState((state) => state.following)
  const { screenToFlowPosition, setViewport, getViewport } = useReactFlow()
  const canvas = useFlowStore((flow) => flow.domNode)

  useEffect(() => {
    session?.setPresence({ editing })
  }, [session, editing])

  useEffect(() => {
    if (!session) return
    session.setPresence({ viewport: getViewport() })
    if (!canvas) return
    const onMove = (event: PointerEvent) => {
      session.setPresence({ cursor: screenToFlowPosition({ x: event.clientX, y: event.clientY }) })
    }
    const onLeave = () => session.setPresence({ cursor: null })
    canvas.addEventListener('pointermove', onMove)
    canvas.addEventListener('pointerleave', onLeave)
    return () => {
      canvas.removeEventListener('pointermove', onMove)
      canvas.removeEventListener('pointerleave', onLeave)
    }
  }, [session, canvas, screenToFlowPosition, getViewport])

  useOnViewportChange({
    onChange: (viewport) => session?.setPresence({ viewport }),
  })

  const followedViewport = following ? peers[following]?.state.viewport : null
  useEffect(() => {
    if (followedViewport) void setViewport(followedViewport, { duration: 150 })
  }, [followedViewport, setViewport])

  if (!session) return null
  const others = Object.values(peers)
  const outlines = others
    .filter((peer) => peer.state.editing)
    .map((peer) => {
      const id = CSS.escape(peer.state.editing!)
      return `[data-block-id="${id}"],[data-node-id="${id}"]{outline:2px solid ${peer.color};outline-offset:2px;}`
    })
    .join('\n')
  return (
    <>
      {outlines && <style data-testid="coedit-outlines">{outlines}</style>}
      <ViewportPortal>
        {others.map((peer) =>
          peer.state.cursor ? (
            <div
              key={peer.clientId}
              data-testid="coedit-cursor"
              data-user-name={peer.name}
              className="pointer-events-none absolute left-0 top-0 z-50"
              style={{
                transform: `translate(${peer.state.cursor.x}px, ${peer.state.cursor.y}px)`,
                color: peer.color,
              }}
            >
              <MousePointer2Icon className="size-4 fill-current" aria-hidden />
              <span
                className="ml-3 whitespace-nowrap rounded px-1.5 py-0.5 text-[11px] font-medium text-white"
                style={{ backgroundColor: peer.color }}
              >
                {peer.name}
              </span>
            </div>
          ) : null
        )}
      </ViewportPortal>
    </>
  )
}
