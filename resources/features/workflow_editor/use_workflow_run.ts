import { createContext, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { HttpError, errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { isRecord } from '~/features/plugin_form/values'
import type { WorkflowEditorStore } from './workflow_editor_store'
import {
  applyRunMessage,
  isSettled,
  NODE_STATUSES,
  openRunStream,
  RUN_STATUSES,
  type RunStreamState,
} from './run_stream'
import type { NodeRunStatus, RunProgress } from './types'

export const RUN_POLL_MS = 500
/** A forgotten tab stops asking after half an hour; the run itself goes on. */
const MAX_POLLS = (30 * 60 * 1000) / RUN_POLL_MS

// A parked run (waiting) may sleep for days: the editor stops following it there.
export { isSettled }

/**
 * Reads GET /api/v1/runs/:id, as `{run: {...}}` or the run itself. A node visited several
 * times (a loop) shows the status of its latest visit: records come oldest first.
 */
export function parseRun(body: unknown, runId: string): RunProgress | null {
  const run = isRecord(body) && isRecord(body.run) ? body.run : body
  if (!isRecord(run)) return null
  const status = RUN_STATUSES.find((candidate) => candidate === run.status)
  if (!status) return null
  const nodes: Record<string, NodeRunStatus> = {}
  const list = Array.isArray(run.nodes) ? run.nodes : []
  for (const node of list) {
    if (!isRecord(node)) continue
    const nodeId = typeof node.nodeId === 'string' ? node.nodeId : undefined
    const nodeStatus = NODE_STATUSES.find((candidate) => candidate === node.status)
    if (nodeId && nodeStatus) nodes[nodeId] = nodeStatus
  }
  return {
    id: typeof run.id === 'string' ? run.id : runId,
    status,
    nodes,
    error: typeof run.error === 'string' ? run.error : null,
  }
}

/**
 * The canvas's live run, and the Run button. The workflow's runs channel (server-sent
 * events) puts each node's status in the store's run map as it happens, for manual runs and
 * for runs a webhook or a schedule starts while the editor is open. While the stream is not
 * live (connecting, refused, dropped) a run started here is polled every 500 ms instead, and
 * a run the stream says has settled is read once more for its final record. Where the
 * server has no run route (404), the button goes away.
 */
export function useWorkflowRun(store: WorkflowEditorStore) {
  const { t } = useTranslation()
  const [available, setAvailable] = useState(true)
  const [starting, setStarting] = useState(false)
  const [streamState, setStreamState] = useState<RunStreamState>('connecting')
  const streamRef = useRef<RunStreamState>('connecting')
  const pollRef = useRef<{ timer: ReturnType<typeof setTimeout> | null; stopped: boolean }>({
    timer: null,
    stopped: false,
  })
  const announced = useRef(new Set<string>())
  const workflowId = store.getState().workflowId

  const stopPolling = useCallback(() => {
    pollRef.current.stopped = true
    if (pollRef.current.timer) clearTimeout(pollRef.current.timer)
    pollRef.current.timer = null
  }, [])

  useEffect(() => stopPolling, [stopPolling])

  /** One toast per settled run, whichever path (stream or polling) saw it first. */
  const announce = useCallback(
    (run: RunProgress) => {
      if (!isSettled(run.status) || announced.current.has(run.id)) return
      announced.current.add(run.id)
      if (run.status === 'success') showToast('success', t('workflowEditor.run.succeeded'))
      if (run.status === 'error') {
        showToast('error', t('workflowEditor.run.failed'), run.error ?? undefined)
      }
    },
    [t]
  )

  /**
   * Reads the run's record: the truth for its nodes, whatever the stream missed. With
   * `unlessNewer`, a record read while the stream moved the run on (a wait resumed during a
   * slow read) is older than the canvas and is not shown.
   */
  const refresh = useCallback(
    async (runId: string, options: { unlessNewer?: boolean } = {}) => {
      const asked = store.getState().run
      const run = parseRun(await jsonFetch(`/api/v1/runs/${runId}`), runId)
      const current = store.getState().run
      if (options.unlessNewer && current !== asked) return run
      // Another run took over the canvas meanwhile: leave it.
      if (run && (!current || current.id === runId)) store.getState().setRun(run)
      return run
    },
    [store]
  )

  const poll = useCallback(
    (runId: string) => {
      let polls = 0
      const tick = async () => {
        if (pollRef.current.stopped || ++polls > MAX_POLLS) return
        // The stream came (back): it carries the run from here.
        if (streamRef.current === 'live' && polls > 1) return
        try {
          const run = await refresh(runId)
          if (pollRef.current.stopped) return
          if (run && isSettled(run.status)) return announce(run)
        } catch (error) {
          // One lost answer is retried at the next tick; a missing run ends the watch.
          if (error instanceof HttpError && (error.status === 404 || error.status === 403)) {
            showToast('error', t('workflowEditor.run.lost'), errorDescription(error))
            return
          }
        }
        pollRef.current.timer = setTimeout(tick, RUN_POLL_MS)
      }
      stopPolling()
      pollRef.current = { timer: setTimeout(tick, 0), stopped: false }
    },
    [refresh, announce, stopPolling, t]
  )

  // The stream's handlers read the latest callbacks through a ref: a new `t` (a namespace
  // loaded after the page) must not close the stream and open another, which loses what the
  // server sends in between.
  const handlers = useRef({ poll, refresh, announce })
  handlers.current = { poll, refresh, announce }

  useEffect(() => {
    if (!workflowId) return
    return openRunStream(workflowId, {
      subscribe: (body) => jsonFetch('/__transmit/subscribe', { method: 'POST', body }),
      onState: (state) => {
        streamRef.current = state
        setStreamState(state)
        const run = store.getState().run
        if (!run) return
        // Dropped mid-run: polling takes the run over until the stream is back.
        if (state === 'failed' && !isSettled(run.status)) handlers.current.poll(run.id)
        // (Back) on the stream: the record has what was sent while nobody listened (a parked
        // run may have resumed meanwhile).
        if (state === 'live' && (run.status === 'waiting' || !isSettled(run.status))) {
          handlers.current.refresh(run.id, { unlessNewer: true }).catch(() => {})
        }
      },
      onMessage: (message) => {
        const before = store.getState().run
        const after = applyRunMessage(before, message)
        if (after === before || !after) return
        store.getState().setRun(after)
        if (message.nodeId === null && isSettled(after.status)) {
          const { refresh: read, announce: tell } = handlers.current
          // The final record has the statuses of nodes that ran before this page listened.
          read(after.id, { unlessNewer: true })
            .then((run) => tell(run ?? after))
            .catch(() => tell(after))
        }
      },
    })
  }, [workflowId, store])

  /**
   * A test run of the draft as the server holds it, published or not (docs/workflows.md
   * "Test runs"); `input`: a sample payload (the body of a webhook call).
   */
  const start = useCallback(
    async (input: unknown = {}, options: { nodeId?: string; usePinned?: boolean } = {}) => {
      const state = store.getState()
      if (state.readOnly || starting) return
      setStarting(true)
      try {
        // The run uses what the server holds: pending edits go first.
        if (!(await state.save())) return
        const answer = await jsonFetch<{ runId?: string; id?: string }>(
          `/api/v1/workflows/${state.workflowId}/test-run`,
          { method: 'POST', body: { input, ...options } }
        )
        const runId = answer?.runId ?? answer?.id
        if (!runId) return
        // The stream may have shown this run already (its events can beat this answer).
        if (store.getState().run?.id !== runId) {
          store.getState().setRun({ id: runId, status: 'queued', nodes: {} })
        }
        if (streamRef.current !== 'live') poll(runId)
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) {
          setAvailable(false)
          showToast('info', t('workflowEditor.run.unavailable'))
        } else {
          showToast('error', t('workflowEditor.run.startFailed'), errorDescription(error))
        }
      } finally {
        setStarting(false)
      }
    },
    [store, starting, poll, t]
  )

  // A run opened from the Runs page (?run=): its nodes' statuses and data show here.
  useEffect(() => {
    const runId = new URL(window.location.href).searchParams.get('run')
    if (runId) refresh(runId).catch(() => showToast('error', t('workflowEditor.run.lost')))
    // Once, for the address the editor was opened with.
  }, [])

  const clear = useCallback(() => {
    stopPolling()
    store.getState().setRun(null)
  }, [store, stopPolling])

  return { available, starting, start, clear, live: streamState === 'live' }
}

export type WorkflowRunControls = ReturnType<typeof useWorkflowRun>

/** The Run button's controls, for the node panel's "Test this step". */
export const WorkflowRunContext = createContext<WorkflowRunControls | null>(null)
