import * as Y from 'yjs'
import { createStore, type StoreApi } from 'zustand'
import {
  decodeBase64,
  draftRoot,
  encodeBase64,
  keepUnchanged,
  readDraft,
  writeDraft,
} from '#shared/coedit/mirror'
import {
  documentChannel,
  personChannel,
  type CoeditKind,
  type CoeditMessage,
  type PresenceState,
} from '#shared/coedit/protocol'
import { HttpError, jsonFetch } from '~/lib/http'
import type { DraftSyncState } from './draft_sync'

/**
 * One editor's side of a shared draft (docs/editor.md "Editing together"). The editor store
 * stays the one the canvas and forms read; this session mirrors its document into a Yjs
 * document and back:
 * - an edit in the store becomes a Yjs change (origin LOCAL), sent by POST in batches;
 * - a change heard on the draft's transmit channel is applied to the Yjs document and the
 *   merged document put in the store (objects that did not change are kept, so React
 *   redraws only what did);
 * - undo and redo are Yjs's UndoManager over LOCAL changes only: a person undoes their own
 *   edits, never a colleague's;
 * - unsent changes wait while the network is down and go when it is back; the merged state
 *   is fetched again then, for what others did meanwhile.
 */

/** Changes made in this editor (through its store). */
const LOCAL = Symbol('local')
/** Changes heard from the server. */
const REMOTE = Symbol('remote')

/** Edits typed within this long are sent together (and undone together). */
const SEND_DELAY_MS = 50
const UNDO_CAPTURE_MS = 500
const RETRY_MS = 2000
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
}

export interface CoeditState {
  status: 'connecting' | 'live' | 'offline'
  peers: Record<string, Peer>
  /** The person whose view this editor follows (their client id). */
  following: string | null
}

/** What the session needs of an editor store: its draft in an undo history, read-only flag. */
export interface CoeditEditorState<D> extends DraftSyncState<D> {
  save: () => Promise<boolean>
  saveOnLeave: () => boolean
  undo: () => void
  redo: () => void
}

export interface CoeditOptions<S extends CoeditEditorState<D>, D> {
  kind: CoeditKind
  id: string
  /** The signed-in person (their own channel tells when their access ends). */
  userId: string
  store: StoreApi<S>
  /** The part of the document that is shared (what the draft's save would send). */
  bodyOf: (doc: D) => Record<string, unknown>
  /** The store's fields for "this document is what the server holds". */
  markSaved: (doc: D) => Partial<S>
  /** Called once this person may no longer open the draft. */
  onRevoked: () => void
}

export interface CoeditSession {
  state: StoreApi<CoeditState>
  /** Sends where this person is and what they edit (throttled). */
  setPresence: (presence: PresenceState) => void
  follow: (clientId: string | null) => void
  stop: () => void
}

interface JoinAnswer {
  state: string
  workspaceId: string
}

export function startCoedit<S extends CoeditEditorState<D>, D>(
  options: CoeditOptions<S, D>
): CoeditSession {
  const { store, kind, id } = options
  const clientId = crypto.randomUUID()
  const base = `/api/coedit/${kind}/${id}`
  const doc = new Y.Doc()
  const root = draftRoot(doc)
  const state = createStore<CoeditState>()(() => ({
    status: 'connecting',
    peers: {},
    following: null,
  }))
  const initial = store.getState().history.present
  let joined = false
  let stopped = false
  let workspaceId: string | null = null

  // ---- store -> Yjs ------------------------------------------------------------------
  let applyingRemote = false
  const unsubscribeStore = store.subscribe((next, previous) => {
    if (!joined || applyingRemote || next.readOnly) return
    if (next.history.present === previous.history.present) return
    writeDraft(doc, options.bodyOf(next.history.present), LOCAL)
  })

  // ---- Yjs -> store ------------------------------------------------------------------
  function toStore() {
    const current = store.getState()
    const merged = keepUnchanged(options.bodyOf(current.history.present), readDraft(doc))
    const present = { ...current.history.present, ...merged } as D
    applyingRemote = true
    try {
      store.setState({
        history: { ...current.history, present },
        ...(pending.length === 0 && inFlight === null ? options.markSaved(present) : {}),
      } as Partial<S>)
    } finally {
      applyingRemote = false
    }
  }
  root.observeDeep((_events, transaction) => {
    if (transaction.origin !== LOCAL) toStore()
  })

  // ---- sending -----------------------------------------------------------------------
  let pending: Uint8Array[] = []
  let inFlight: Promise<void> | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === REMOTE || !joined || store.getState().readOnly) return
    pending.push(update)
    schedule(SEND_DELAY_MS)
  })

  function schedule(delay: number) {
    if (timer !== null || stopped) return
    timer = setTimeout(() => {
      timer = null
      void flush()
    }, delay)
  }

  function setStatus(status: CoeditState['status']) {
    if (state.getState().status !== status) state.setState({ status })
  }

  async function flush(keepalive = false): Promise<void> {
    if (inFlight) return inFlight.then(() => (pending.length > 0 ? flush(keepalive) : undefined))
    if (pending.length === 0) return
    const batch = pending
    pending = []
    const update = Y.mergeUpdates(batch)
    inFlight = (async () => {
      try {
        await jsonFetch(`${base}/updates`, {
          method: 'POST',
          body: { clientId, update: encodeBase64(update) },
          keepalive,
        })
        if (state.getState().status === 'offline') void rejoin()
        else setStatus('live')
      } catch (error) {
        // Kept for the next try, ahead of what was typed meanwhile.
        pending = [update, ...pending]
        if (error instanceof HttpError && (error.status === 403 || error.status === 404)) {
          revoke()
          return
        }
        setStatus('offline')
        schedule(RETRY_MS)
      } finally {
        inFlight = null
      }
    })()
    await inFlight
    if (pending.length === 0) {
      const present = store.getState().history.present
      store.setState(options.markSaved(present) as Partial<S>)
    } else schedule(SEND_DELAY_MS)
  }

  // ---- undo: mine only ---------------------------------------------------------------
  const undoManager = new Y.UndoManager(root, {
    trackedOrigins: new Set([LOCAL]),
    captureTimeout: UNDO_CAPTURE_MS,
  })

  // ---- joining and catching up -------------------------------------------------------
  async function rejoin() {
    try {
      const answer = await jsonFetch<JoinAnswer>(base)
      if (stopped) return
      workspaceId = answer.workspaceId
      Y.applyUpdate(doc, decodeBase64(answer.state), REMOTE)
      if (!joined) {
        joined = true
        const present = store.getState().history.present
        // Edits made while joining are this person's: they go on top of the shared state.
        if (present !== initial && !store.getState().readOnly)
          writeDraft(doc, options.bodyOf(present), LOCAL)
        else toStore()
      }
      setStatus('live')
      if (pending.length > 0) void flush()
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) {
        revoke()
        return
      }
      setStatus('offline')
      setTimeout(() => {
        if (!stopped && state.getState().status === 'offline') void rejoin()
      }, RETRY_MS)
    }
  }

  function revoke() {
    if (stopped) return
    stop()
    options.onRevoked()
  }

  // ---- the channel -------------------------------------------------------------------
  const uid = crypto.randomUUID()
  const channels = [documentChannel(kind, id), personChannel(options.userId)]
  const source = new EventSource(`/__transmit/events?uid=${encodeURIComponent(uid)}`)
  let everOpened = false
  source.onopen = () => {
    void Promise.all(
      channels.map((channel) =>
        jsonFetch('/__transmit/subscribe', { method: 'POST', body: { uid, channel } })
      )
    )
      .then(() => {
        // Subscribed: anything sent before is fetched (the first time, the whole state).
        if (!everOpened || state.getState().status === 'offline') void rejoin()
        everOpened = true
        sendPresence()
      })
      .catch(() => setStatus('offline'))
  }
  source.onerror = () => {
    if (!stopped) setStatus('offline')
  }
  source.onmessage = (event: MessageEvent<string>) => {
    let message: { channel?: string; payload?: CoeditMessage }
    try {
      message = JSON.parse(event.data)
    } catch {
      return
    }
    const payload = message.payload
    if (!payload || !message.channel || !channels.includes(message.channel)) return
    if (payload.type === 'update') {
      if (payload.clientId === clientId || !joined) return
      Y.applyUpdate(doc, decodeBase64(payload.update), REMOTE)
    } else if (payload.type === 'presence') {
      if (payload.clientId === clientId) return
      onPresence(payload)
    } else if (payload.type === 'revoked') {
      if (payload.workspaceId === workspaceId) revoke()
    }
  }

  // ---- presence ----------------------------------------------------------------------
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
      }
    }
    const following = state.getState().following
    state.setState({
      peers,
      following: following && peers[following] ? following : null,
    })
    // A newcomer learns where everyone is from their next message.
    if (!known && !message.state.gone) sendPresence()
  }

  function sendPresence(body: PresenceState = presence, keepalive = false) {
    if (stopped && !keepalive) return
    lastPresenceAt = Date.now()
    void jsonFetch(`${base}/presence`, {
      method: 'POST',
      body: { clientId, ...body },
      keepalive,
    }).catch(() => {
      // Presence is best effort: the next move or heartbeat sends it again.
    })
  }

  function setPresence(next: PresenceState) {
    presence = { ...presence, ...next }
    if (presenceTimer !== null) return
    const wait = Math.max(0, PRESENCE_THROTTLE_MS - (Date.now() - lastPresenceAt))
    presenceTimer = setTimeout(() => {
      presenceTimer = null
      sendPresence()
    }, wait)
  }

  const heartbeat = setInterval(() => {
    sendPresence()
    const now = Date.now()
    const peers = state.getState().peers
    const alive = Object.fromEntries(
      Object.entries(peers).filter(([, peer]) => now - peer.seenAt < PRESENCE_EXPIRY_MS)
    )
    if (Object.keys(alive).length !== Object.keys(peers).length) state.setState({ peers: alive })
  }, PRESENCE_HEARTBEAT_MS)

  const onOnline = () => {
    if (state.getState().status === 'offline') void rejoin()
  }
  const onOffline = () => setStatus('offline')
  window.addEventListener('online', onOnline)
  window.addEventListener('offline', onOffline)

  // ---- the editor store's saving and undo go through the session ---------------------
  const previous = {
    save: store.getState().save,
    saveOnLeave: store.getState().saveOnLeave,
    undo: store.getState().undo,
    redo: store.getState().redo,
  }
  store.setState({
    save: async () => {
      await flush()
      return pending.length === 0
    },
    saveOnLeave: () => {
      void flush(true)
      sendPresence({ gone: true }, true)
      return true
    },
    undo: () => {
      if (!store.getState().readOnly) undoManager.undo()
    },
    redo: () => {
      if (!store.getState().readOnly) undoManager.redo()
    },
  } as Partial<S>)

  function stop() {
    if (stopped) return
    stopped = true
    if (timer !== null) clearTimeout(timer)
    if (presenceTimer !== null) clearTimeout(presenceTimer)
    clearInterval(heartbeat)
    window.removeEventListener('online', onOnline)
    window.removeEventListener('offline', onOffline)
    source.close()
    unsubscribeStore()
    undoManager.destroy()
    store.setState(previous as Partial<S>)
  }

  return {
    state,
    setPresence,
    follow(target) {
      state.setState({ following: target })
    },
    stop() {
      if (!stopped) sendPresence({ gone: true }, true)
      void flush(true)
      stop()
    },
  }
}
