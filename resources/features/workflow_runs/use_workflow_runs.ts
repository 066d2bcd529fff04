import { useCallback, useEffect, useRef, useState } from 'react'
import type { WorkflowRunDetailDto, WorkflowRunSummaryDto } from '#shared/workflow/dto'
import { jsonFetch } from '~/lib/http'
import { openRunStream } from '~/features/workflow_editor/run_stream'

type Load<T> =
  { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ready'; data: T }

/** Stream messages come node by node: one re-read per burst is enough. */
const REFRESH_MS = 300

/**
 * A workflow's runs and the selected run's detail, read from the REST API (the same
 * policy-checked reads as API tokens), kept current by the workflow's runs channel: a run
 * that starts or moves re-reads the list, and the selected one its detail.
 */
export function useWorkflowRuns(workflowId: string, initialRunId: string | null) {
  const [list, setList] = useState<Load<WorkflowRunSummaryDto[]>>({ state: 'loading' })
  const [selectedId, setSelectedId] = useState<string | null>(initialRunId)
  const [detail, setDetail] = useState<Load<WorkflowRunDetailDto> | null>(null)
  const [live, setLive] = useState(false)
  const selectedRef = useRef(selectedId)
  selectedRef.current = selectedId

  const loadList = useCallback(
    async (quiet = false) => {
      if (!quiet) setList({ state: 'loading' })
      try {
        const answer = await jsonFetch<{ runs: WorkflowRunSummaryDto[] }>(
          // Test runs of the draft are listed too, marked (the editor's Run button makes them).
          `/api/v1/workflows/${workflowId}/runs?limit=100&tests=true`
        )
        setList({ state: 'ready', data: answer.runs })
        // The newest run opens when none was asked for.
        if (!selectedRef.current && answer.runs[0]) setSelectedId(answer.runs[0].id)
      } catch (error) {
        if (!quiet) setList({ state: 'error', error })
      }
    },
    [workflowId]
  )

  const loadDetail = useCallback(async (runId: string, quiet = false) => {
    if (!quiet) setDetail({ state: 'loading' })
    try {
      const answer = await jsonFetch<{ run: WorkflowRunDetailDto }>(`/api/v1/runs/${runId}`)
      // A slow answer for a run no longer selected is dropped.
      if (selectedRef.current === runId) setDetail({ state: 'ready', data: answer.run })
    } catch (error) {
      if (!quiet && selectedRef.current === runId) setDetail({ state: 'error', error })
    }
  }, [])

  useEffect(() => {
    void loadList()
  }, [loadList])

  useEffect(() => {
    if (!selectedId) return setDetail(null)
    void loadDetail(selectedId)
    // Deep links: ?run= follows the selection without a page visit.
    const url = new URL(window.location.href)
    url.searchParams.set('run', selectedId)
    window.history.replaceState(window.history.state, '', url)
  }, [selectedId, loadDetail])

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null
    const touched = new Set<string>()
    const close = openRunStream(workflowId, {
      subscribe: (body) => jsonFetch('/__transmit/subscribe', { method: 'POST', body }),
      onState: (state) => setLive(state === 'live'),
      onMessage: (message) => {
        touched.add(message.runId)
        if (timer) return
        timer = setTimeout(() => {
          timer = null
          const selected = selectedRef.current
          if (selected && touched.has(selected)) void loadDetail(selected, true)
          touched.clear()
          void loadList(true)
        }, REFRESH_MS)
      },
    })
    return () => {
      if (timer) clearTimeout(timer)
      close()
    }
  }, [workflowId, loadList, loadDetail])

  return {
    list,
    detail,
    selectedId,
    select: setSelectedId,
    live,
    reloadList: () => loadList(),
    reloadDetail: () => selectedId && loadDetail(selectedId),
  }
}
