import * as Y from 'yjs'
import { createStore } from 'zustand'
import {
  decodeBase64,
  draftRoot,
  encodeBase64,
  keepUnchanged,
  mergeDrafts,
  readDraft,
  writeDraft,
  writeDraftChange,
} from '#shared/coedit/mirror'
import { documentChannel, personChannel, type CoeditMessage } from '#shared/coedit/protocol'
import { HttpError, errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { createPresence, type CoeditState } from './coedit_presence'
import { createCopilotChanges } from './coedit_copilot'
import { watchPointerGestures } from './pointer_gesture'
import type {
  CoeditEditorState,
  CoeditOptions,
  CoeditSession,
  JoinAnswer,
  Written,
} from './coedit_types'

/**
 * One editor's side of a shared draft (docs/editor.md "Editing together"). The editor store
 * stays the one the canvas and forms read; this session mirrors its document into a Yjs
 * document and back:
 * - an edit in the store becomes a Yjs change (origin LOCAL), sent by POST in batches;
 * - a change heard on the draft's transmit channel is applied to the Yjs document and the
 *   merged document put in the store (objects that did not change are kept, so React
 *   redraws only what did);
 * - undo and redo are Yjs's UndoManager over LOCAL changes only: a person undoes their own
 *   edits, never a colleague's nor the copilot's; its steps are the store's (one per history
 *   entry), so the undo button and the keyboard undo what they undid before;
 * - a change of the copilot's (marked so on the channel, or brought by the reply to the
 *   person who asked) gets an UndoManager of its own: the copilot panel's Undo reverts that
 *   change and nothing else, as an edit of the person who clicked it;
 * - the store's `save` (the autosave, and publish, preview, history before they act) sends
 *   what is left and has the server write the merged draft now: "Saved" means written, and
 *   the answer brings the draft's issues as a REST save's did; every write's issues reach
 *   the other editors too;
 * - until the first join succeeds, the store keeps its REST saves (the fallback when the
 *   shared draft cannot be reached at all);
 * - unsent changes wait while the network is down and go when it is back; the merged state
 *   is fetched again then, for what others did meanwhile.
 */

/** Changes made in this editor (through its store). */
const LOCAL = Symbol('local')
/** Changes heard from the server. */
const REMOTE = Symbol('remote')

/** Edits typed within this long are sent together (and undone together). */
const SEND_DELAY_MS = 50
/** Undo steps are cut where the store's history is (see the store subscription). */
const UNDO_CAPTURE_MS = 24 * 60 * 60 * 1000
const RETRY_MS = 2000
/**
 * A save asked for before the first join (the autosave of an edit made as the page opened)
 * waits this long for it, then goes the REST way: a REST save racing the join could land
 * after the shared state was read, and that state, older, would hide it in the editor.
 */
const JOIN_WAIT_MS = 8000
export type { CoeditState, Peer } from './coedit_presence'
export type { CoeditEditorState, CoeditOptions, CoeditSession } from './coedit_types'

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
  let joined = false
  let stopped = false
  let workspaceId: string | null = null

  // ---- store -> Yjs ------------------------------------------------------------------
  let applyingRemote = false
  /** The store's own undo or redo is moving its history: Yjs's undo makes the change. */
  let undoing = false
  /**
   * The store's draft the document is known to hold, or null: a store change from it is
   * written as its changed parts only (a drag writes one group per pointer move). Anything
   * else that changes the document forgets it, until the store is set from the document.
   */
  let mirrored: D | null = null
  doc.on('beforeTransaction', (transaction: Y.Transaction) => {
    if (transaction.origin !== LOCAL) mirrored = null
  })
  const unsubscribeStore = store.subscribe((next, previous) => {
    if (next.history.present === previous.history.present) return
    if (!joined || applyingRemote || undoing || next.readOnly) {
      mirrored = null
      return
    }
    // A new entry in the store's history is a new undo step (edits it coalesces stay one).
    if (next.history.past !== previous.history.past) undoManager.stopCapturing()
    const body = options.bodyOf(next.history.present)
    if (mirrored !== null && mirrored === previous.history.present) {
      writeDraftChange(doc, options.bodyOf(mirrored), body, LOCAL)
    } else {
      writeDraft(doc, body, LOCAL)
    }
    mirrored = next.history.present
  })

  // ---- Yjs -> store ------------------------------------------------------------------
  function toStore() {
    const current = store.getState()
    const merged = keepUnchanged(options.bodyOf(current.history.present), readDraft(doc))
    const present = { ...current.history.present, ...merged } as D
    // Saved before, saved after: the colleague whose change this is writes it.
    const wasSaved = current.history.present === options.saved(current)
    applyingRemote = true
    try {
      store.setState({
        history: { ...current.history, present },
        ...(wasSaved ? options.markSaved(present) : {}),
      } as Partial<S>)
    } finally {
      applyingRemote = false
    }
    mirrored = store.getState().history.present
  }
  root.observeDeep((_events, transaction) => {
    // Not before the first join: the shared state it brings would replace, in the store, the
    // edits made before it, which the join then merges in (see rejoin).
    if (joined && transaction.origin !== LOCAL) toStore()
  })

  // ---- sending -----------------------------------------------------------------------
  let pending: Uint8Array[] = []
  let inFlight: Promise<void> | null = null
  /** What the request in flight carries, and whether it outlives the page. */
  let inFlightUpdate: Uint8Array | null = null
  let inFlightKeepalive = false
  let timer: ReturnType<typeof setTimeout> | null = null
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === REMOTE || copilotOrigins.has(origin) || !joined || store.getState().readOnly)
      return
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

  /**
   * Sends what is left. `write` (the tab hidden or the page left) has the server write the
   * merged draft at once, in the same request as the last updates, rather than a moment
   * later: what hiding the tab did with a REST save.
   */
  async function flush(keepalive = false, write = false): Promise<void> {
    if (inFlight && keepalive && inFlightUpdate && !inFlightKeepalive) {
      // The page may be gone before the request in flight answers, and that request with
      // it: its updates go again with the rest in one that outlives the page (the server
      // keeps an update twice harmlessly: Yjs applies it once).
      const batch = [inFlightUpdate, ...pending]
      const sent = store.getState().history.present
      pending = []
      void jsonFetch<Written | null>(`${base}/updates`, {
        method: 'POST',
        body: {
          clientId,
          update: encodeBase64(Y.mergeUpdates(batch)),
          ...(write ? { write: true } : {}),
        },
        keepalive: true,
      }).then(
        // The tab was only hidden: this request, not the one in flight, carried the write,
        // so its answer is what says the draft is saved.
        (answer) => {
          if (write && answer) written(answer, sent)
        },
        () => {
          // Still here (the tab was only hidden): sent with the next batch.
          pending = [...batch, ...pending]
          schedule(RETRY_MS)
        }
      )
      return
    }
    if (inFlight) {
      return inFlight.then(() =>
        pending.length > 0 || write ? flush(keepalive, write) : undefined
      )
    }
    if (pending.length === 0) {
      if (write) await writeOnLeave(keepalive)
      return
    }
    const batch = pending
    pending = []
    const update = Y.mergeUpdates(batch)
    const sent = store.getState().history.present
    inFlightUpdate = update
    inFlightKeepalive = keepalive
    inFlight = (async () => {
      try {
        const answer = await jsonFetch<Written | null>(`${base}/updates`, {
          method: 'POST',
          body: { clientId, update: encodeBase64(update), ...(write ? { write: true } : {}) },
          keepalive,
        })
        if (write && answer) written(answer, sent)
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
        inFlightUpdate = null
      }
    })()
    await inFlight
    if (pending.length > 0) schedule(SEND_DELAY_MS)
  }

  // ---- saving: the merged draft written now ------------------------------------------
  let saveChain: Promise<boolean> = Promise.resolve(true)

  /** The server wrote the draft as it was when `sent` was this editor's. */
  function written(answer: Written, sent: D) {
    if (stopped) return
    store.setState({
      conflict: false,
      ...options.applyIssues(answer.issues, answer.revision, answer.meta),
      ...options.markSaved(sent),
    } as Partial<S>)
  }

  /** Nothing left to send: only the write, as a request that outlives the page. */
  async function writeOnLeave(keepalive: boolean) {
    const sent = store.getState().history.present
    try {
      written(
        await jsonFetch<Written>(`${base}/write`, {
          method: 'POST',
          body: { clientId },
          keepalive,
        }),
        sent
      )
    } catch {
      // The server writes the updates it holds a moment after they came anyway.
    }
  }

  async function writeNow(): Promise<boolean> {
    const current = store.getState()
    if (current.readOnly || stopped) return true
    const sent = current.history.present
    await flush()
    // Offline: the edits wait in `pending` and go when the network is back.
    if (pending.length > 0) return false
    const checked = options.validate(sent)
    if (!checked.ok) {
      const first = 'errors' in checked ? checked.errors[0] : undefined
      showToast(
        'error',
        options.errorTitle(),
        first ? `${first.path}: ${first.message}` : undefined
      )
      return false
    }
    store.setState({ saving: true } as Partial<S>)
    try {
      const answer = await jsonFetch<Written>(`${base}/write`, {
        method: 'POST',
        body: { clientId },
      })
      store.setState({
        saving: false,
        conflict: false,
        ...options.applyIssues(answer.issues, answer.revision, answer.meta),
        ...options.markSaved(sent),
      } as Partial<S>)
      return true
    } catch (error) {
      store.setState({ saving: false } as Partial<S>)
      if (error instanceof HttpError && (error.status === 403 || error.status === 404)) {
        revoke()
        return false
      }
      if (error instanceof HttpError) {
        showToast('error', options.errorTitle(), errorDescription(error))
      } else setStatus('offline')
      return false
    }
  }

  function save() {
    saveChain = saveChain.then(writeNow, writeNow)
    return saveChain
  }

  // ---- undo: mine only ---------------------------------------------------------------
  const undoManager = new Y.UndoManager(root, {
    trackedOrigins: new Set([LOCAL]),
    captureTimeout: UNDO_CAPTURE_MS,
  })

  // ---- the copilot's changes: each one undoable on its own (coedit_copilot.ts) --------
  const copilot = createCopilotChanges({
    doc,
    ready: () => joined && !stopped,
    readOnly: () => store.getState().readOnly,
  })
  const copilotOrigins = copilot.origins
  const applyCopilot = copilot.apply
  const undoCopilot = copilot.undo

  // ---- joining and catching up -------------------------------------------------------
  /** Settled by the first join's success or failure (or after JOIN_WAIT_MS). */
  let settleFirstJoin!: () => void
  const firstJoin = new Promise<void>((resolve) => {
    settleFirstJoin = resolve
  })
  const joinWait = setTimeout(() => settleFirstJoin(), JOIN_WAIT_MS)

  /** Resolves once no REST save (made before the session took over) is in flight. */
  function restSavesDone() {
    return new Promise<void>((resolve) => {
      if (!store.getState().saving) return resolve()
      const unsubscribe = store.subscribe((next) => {
        if (next.saving) return
        unsubscribe()
        resolve()
      })
    })
  }

  async function rejoin() {
    try {
      // The state read must come after what a REST save wrote, or it would hide that edit.
      if (!joined) await restSavesDone()
      if (stopped) return
      const answer = await jsonFetch<JoinAnswer>(base)
      // Applying the state takes a while on a large draft (some 150 ms for 5,000 blocks):
      // not in the middle of a drag begun as the page opened. What colleagues send meanwhile
      // waits in `heardBeforeJoin`.
      await gestures.idle()
      if (stopped) return
      workspaceId = answer.workspaceId
      Y.applyUpdate(doc, decodeBase64(answer.state), REMOTE)
      if (!joined) {
        // What colleagues sent while this editor joined goes on the state (Yjs keeps an
        // update it already holds once); the copilot's, once joined, as its own changes.
        const heard = heardBeforeJoin.splice(0)
        for (const update of heard) if (update.by !== 'copilot') applyHeard(update)
        joined = true
        const current = store.getState()
        const saved = options.saved(current)
        const present = current.history.present
        // Edits made before joining (the session starts once Yjs has loaded, and the join
        // takes a moment) that the server does not hold yet are this person's: what they
        // changed from the saved draft goes on top of the shared state, as their change.
        // Without it, the shared state (from before them) would put back what they removed.
        if (present !== saved && !current.readOnly) {
          const mine = mergeDrafts(
            options.bodyOf(saved),
            options.bodyOf(present),
            readDraft(doc)
          ) as Record<string, unknown>
          writeDraft(doc, mine, LOCAL)
        }
        toStore()
        takeOver()
        settleFirstJoin()
        for (const update of heard) if (update.by === 'copilot') applyHeard(update)
      }
      setStatus('live')
      if (pending.length > 0) void flush()
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) {
        revoke()
        return
      }
      // Saves waiting for the join go the REST way meanwhile.
      settleFirstJoin()
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
  const gestures = watchPointerGestures()
  const heardBeforeJoin: Extract<CoeditMessage, { type: 'update' }>[] = []
  function applyHeard(payload: Extract<CoeditMessage, { type: 'update' }>) {
    if (payload.by === 'copilot') applyCopilot(payload.update)
    else Y.applyUpdate(doc, decodeBase64(payload.update), REMOTE)
  }
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
      if (payload.clientId === clientId) return
      // Before the first join the state read may be older than this update: kept for after it.
      if (!joined) heardBeforeJoin.push(payload)
      else applyHeard(payload)
    } else if (payload.type === 'presence') {
      if (payload.clientId === clientId) return
      onPresence(payload)
    } else if (payload.type === 'revoked') {
      if (payload.workspaceId === workspaceId) revoke()
    } else if (payload.type === 'issues') {
      if (joined)
        store.setState(options.applyIssues(payload.issues, payload.revision, payload.meta))
    }
  }

  // ---- presence (coedit_presence.ts) -------------------------------------------------
  const presence = createPresence({
    base,
    clientId,
    peers: state,
    isStopped: () => stopped,
  })
  const { onPresence, send: sendPresence, set: setPresence } = presence

  const onOnline = () => {
    if (state.getState().status === 'offline') void rejoin()
  }
  const onOffline = () => setStatus('offline')
  window.addEventListener('online', onOnline)
  window.addEventListener('offline', onOffline)

  // ---- the editor store's saving and undo go through the session once joined ----------
  const previous = {
    save: store.getState().save,
    saveOnLeave: store.getState().saveOnLeave,
    undo: store.getState().undo,
    redo: store.getState().redo,
  }
  /** Moves the store's history one step (its buttons and shortcuts), Yjs's undo the draft. */
  function step(move: () => void, yjs: () => unknown) {
    if (store.getState().readOnly) return
    undoing = true
    try {
      move()
    } finally {
      undoing = false
    }
    yjs()
    // The draft as Yjs has it now (also when Yjs had no step of this person's to take).
    toStore()
  }
  /**
   * Until the first join, a save waits for it: then it writes the shared draft, or, when
   * the shared draft could not be reached, goes the REST way as before.
   */
  function saveAfterJoin() {
    return firstJoin.then(() => (joined && !stopped ? save() : previous.save()))
  }
  store.setState({ save: saveAfterJoin } as Partial<S>)

  let tookOver = false
  function takeOver() {
    if (tookOver || stopped) return
    tookOver = true
    store.setState({
      conflict: false,
      save,
      saveOnLeave: () => {
        // Updates are kept by the server as they arrive; these are written with the last ones.
        void flush(true, true)
        return true
      },
      undo: () => step(previous.undo, () => undoManager.undo()),
      redo: () => step(previous.redo, () => undoManager.redo()),
    } as Partial<S>)
  }

  function stop() {
    if (stopped) return
    stopped = true
    if (timer !== null) clearTimeout(timer)
    clearTimeout(joinWait)
    settleFirstJoin()
    presence.stop()
    gestures.stop()
    window.removeEventListener('online', onOnline)
    window.removeEventListener('offline', onOffline)
    source.close()
    unsubscribeStore()
    undoManager.destroy()
    copilot.destroy()
    store.setState(previous as Partial<S>)
  }

  return {
    state,
    setPresence,
    follow(target) {
      state.setState({ following: target })
    },
    isJoined: () => joined && !stopped,
    applyCopilot,
    undoCopilot,
    stop() {
      if (!stopped) sendPresence({ gone: true }, true)
      void flush(true)
      stop()
    },
  }
}
