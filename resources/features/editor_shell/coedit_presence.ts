import type { StoreApi } from 'zustand'
import type { CoeditMessage, PresenceState } from '#shared/coedit/protocol'
import { jsonFetch } from '~/lib/http'

/** Presence is sent at most this often while the pointer moves, and again this often idle. */
const PRESENCE_THROTTLE_MS = 80
const PRESENCE_HEARTBEAT_MS = 15_000
/** A person not heard of for this long has left (closed laptop, lost network). */
const PRESENCE_EXPIRY_MS = 40_000

export interface Peer {
  clientId: string
  userId: string
  name: string
  color: string
  state: PresenceState
  seenAt: number
  /** The AI copilot (it edited the draft a moment ago), not a person. */
  copilot?: boolean
}

export interface CoeditState {
  status: 'connecting' | 'live' | 'offline'
  peers: Record<string, Peer>
  /** The person whose view this editor follows (their client id). */
  following: string | null
}

/**
 * Who else is in the editor, and where this person is: their presence is sent when it
 * changes (throttled) and as a heartbeat, so that a peer not heard of for a while is
 * taken to have left.
 */
export function createPresence(options: {
  /** The shared draft's API path (`/api/coedit/:kind/:id`). */
  base: string
  clientId: string
  peers: StoreApi<CoeditState>
  isStopped: () => boolean
}) {
  const { base, clientId, peers: state } = options
  let presence: PresenceState = {}
  let presenceTimer: ReturnType<typeof setTimeout> | null = null
  let lastPresenceAt = 0

  function onPresence(message: Extract<CoeditMessage, { type: 'presence' }>) {
    const peers = { ...state.getState().peers }
    const known = peers[message.clientId] !== undefined
    if (message.state.gone) delete peers[message.clientId]
    else {
      peers[message.clientId] = {
        clientId: message.clientId,
        userId: message.userId,
        name: message.name,
        color: message.color,
        state: { ...peers[message.clientId]?.state, ...message.state },
        seenAt: Date.now(),
        ...(message.copilot ? { copilot: true } : {}),
      }
    }
    const following = state.getState().following
    state.setState({
      peers,
      following: following && peers[following] ? following : null,
    })
    // A newcomer learns where everyone is from their next message (the copilot needs not).
    if (!known && !message.state.gone && !message.copilot) send()
  }

  function send(body: PresenceState = presence, keepalive = false) {
    if (options.isStopped() && !keepalive) return
    lastPresenceAt = Date.now()
    void jsonFetch(`${base}/presence`, {
      method: 'POST',
      body: { clientId, ...body },
      keepalive,
    }).catch(() => {
      // Presence is best effort: the next move or heartbeat sends it again.
    })
  }

  function set(next: PresenceState) {
    presence = { ...presence, ...next }
    if (presenceTimer !== null) return
    const wait = Math.max(0, PRESENCE_THROTTLE_MS - (Date.now() - lastPresenceAt))
    presenceTimer = setTimeout(() => {
      presenceTimer = null
      send()
    }, wait)
  }

  const heartbeat = setInterval(() => {
    send()
    const now = Date.now()
    const peers = state.getState().peers
    const alive = Object.fromEntries(
      Object.entries(peers).filter(([, peer]) => now - peer.seenAt < PRESENCE_EXPIRY_MS)
    )
    if (Object.keys(alive).length !== Object.keys(peers).length) state.setState({ peers: alive })
  }, PRESENCE_HEARTBEAT_MS)

  return {
    onPresence,
    send,
    set,
    stop() {
      if (presenceTimer !== null) clearTimeout(presenceTimer)
      clearInterval(heartbeat)
    },
  }
}
