import { useCallback, useRef, useState } from 'react'
import { downloadResultsCsv, type ExportProgress } from './export_csv'
import { exportUrl } from './results_api'
import { isColumnVisible, orderColumns } from './column_layout'
import { useResultsApi } from './results_store'

/**
 * The CSV export of the selected results (or of all results matching the filter when
 * none is selected), with the visible columns in their order. Progress is published at
 * most ten times a second.
 */
export function useCsvExport() {
  const api = useResultsApi()
  const [progress, setProgress] = useState<ExportProgress | null>(null)
  const controller = useRef<AbortController | null>(null)

  const start = useCallback(async () => {
    if (controller.current) return null
    const state = api.getState()
    const selection =
      state.selectedCount() > 0
        ? state.selection()
        : { all: true, search: state.search.trim() || undefined, includeAll: state.includeAll }
    const columns = orderColumns(state.columns, state.preferences)
      .filter((column) => isColumnVisible(column.id, state.preferences))
      .map((column) => column.id)
    const abort = new AbortController()
    controller.current = abort
    let shownAt = 0
    setProgress({ rows: 0, total: null, bytes: 0 })
    try {
      return await downloadResultsCsv(
        exportUrl(state.botId),
        { ...selection, columns },
        (next) => {
          const now = performance.now()
          if (now - shownAt < 100) return
          shownAt = now
          setProgress(next)
        },
        abort.signal
      )
    } catch (error) {
      if (abort.signal.aborted) return null
      throw error
    } finally {
      controller.current = null
      setProgress(null)
    }
  }, [api])

  const cancel = useCallback(() => controller.current?.abort(), [])

  return { progress, start, cancel }
}
