import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { InboxIcon, SearchXIcon } from 'lucide-react'
import { useShallow } from 'zustand/react/shallow'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { EmptyState } from '~/components/empty_state'
import { columnWidth, isColumnVisible, orderColumns } from './column_layout'
import { useResults, useResultsApi } from './results_store'
import { ResultRow, ROW_HEIGHT } from './result_row'
import { HEADER_HEIGHT, TableHeader } from './table_header'

const SELECT_WIDTH = 44
const ACTIONS_WIDTH = 52
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 8
/** The next page loads when the last loaded rows come this close. */
const PREFETCH_ROWS = 30

function TableSkeleton() {
  const { t } = useTranslation()
  return (
    <div data-testid="results-loading" aria-busy className="min-h-0 flex-1 space-y-2 p-4">
      <span className="sr-only">{t('results.loading')}</span>
      <Skeleton className="h-9 w-full" />
      {Array.from({ length: 8 }, (_, index) => (
        <Skeleton key={index} className="h-8 w-full opacity-70" />
      ))}
    </div>
  )
}

/** Scroll position and height of the scrolling box, updated once per frame. */
function useViewport() {
  const ref = useRef<HTMLDivElement>(null)
  const [viewport, setViewport] = useState({ top: 0, height: 800 })
  const frame = useRef(0)
  const measure = useCallback(() => {
    cancelAnimationFrame(frame.current)
    frame.current = requestAnimationFrame(() => {
      const element = ref.current
      if (element) setViewport({ top: element.scrollTop, height: element.clientHeight })
    })
  }, [])
  useEffect(() => {
    const element = ref.current
    if (!element) return
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame.current)
    }
  }, [measure])
  return { ref, viewport, onScroll: measure }
}

/**
 * The rows, windowed by hand: only the rows in view (plus a margin) are in the DOM, so ten
 * thousand loaded results scroll as smoothly as fifty. Scrolling near the end loads the
 * next page; a "Load more" button does the same from the keyboard.
 */
function VirtualTable() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const { rows, columns, preferences, selected, allMatching, nextCursor, loadingMore, total } =
    useResults(
      useShallow((state) => ({
        rows: state.rows,
        columns: state.columns,
        preferences: state.preferences,
        selected: state.selected,
        allMatching: state.allMatching,
        nextCursor: state.nextCursor,
        loadingMore: state.loadingMore,
        total: state.total,
      }))
    )
  const visibleColumns = useMemo(
    () => orderColumns(columns, preferences).filter((c) => isColumnVisible(c.id, preferences)),
    [columns, preferences]
  )
  const widths = useMemo(
    () => visibleColumns.map((column) => columnWidth(column.id, preferences)),
    [visibleColumns, preferences]
  )
  const template = useMemo(
    () => `${SELECT_WIDTH}px ${widths.map((w) => `${w}px`).join(' ')} ${ACTIONS_WIDTH}px`,
    [widths]
  )
  const tableWidth = SELECT_WIDTH + ACTIONS_WIDTH + widths.reduce((sum, w) => sum + w, 0)

  const { ref, viewport, onScroll } = useViewport()
  const bodyTop = Math.max(0, viewport.top - HEADER_HEIGHT)
  const first = Math.max(0, Math.floor(bodyTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(rows.length, Math.ceil((bodyTop + viewport.height) / ROW_HEIGHT) + OVERSCAN)

  useEffect(() => {
    if (nextCursor && !loadingMore && last >= rows.length - PREFETCH_ROWS) {
      void api
        .getState()
        .loadMore()
        .catch(() => {})
    }
  }, [api, last, rows.length, nextCursor, loadingMore])

  const onToggle = useCallback((id: string) => api.getState().toggleRow(id), [api])
  const onOpen = useCallback((id: string) => api.getState().openResult(id), [api])
  const onToggleAll = useCallback(() => api.getState().toggleAllLoaded(), [api])
  const onResize = useCallback(
    (id: string, width: number) => api.getState().setColumnWidth(id, width),
    [api]
  )
  const selectedCount = allMatching ? rows.length : Object.keys(selected).length
  const allChecked = allMatching || (rows.length > 0 && rows.every((row) => selected[row.id]))

  return (
    <div
      ref={ref}
      onScroll={onScroll}
      role="table"
      aria-rowcount={(total ?? rows.length) + 1}
      aria-colcount={visibleColumns.length + 2}
      data-testid="results-table"
      className="min-h-0 flex-1 overflow-auto"
    >
      <div style={{ width: tableWidth, minWidth: '100%' }}>
        <TableHeader
          columns={visibleColumns}
          widths={widths}
          template={template}
          allChecked={allChecked}
          someChecked={selectedCount > 0}
          onToggleAll={onToggleAll}
          onResize={onResize}
        />
        <div role="rowgroup" className="relative" style={{ height: rows.length * ROW_HEIGHT }}>
          {rows.slice(first, last).map((row, offset) => (
            <ResultRow
              key={row.id}
              row={row}
              index={first + offset}
              columns={visibleColumns}
              template={template}
              selected={allMatching || !!selected[row.id]}
              onToggle={onToggle}
              onOpen={onOpen}
            />
          ))}
        </div>
        {(nextCursor || loadingMore) && (
          <div className="sticky left-0 flex w-full max-w-[100vw] justify-center p-3">
            {loadingMore ? (
              <Skeleton className="h-8 w-full" data-testid="results-loading-more" />
            ) : (
              <Button
                variant="outline"
                size="sm"
                data-testid="results-load-more"
                onClick={() => void api.getState().loadMore()}
              >
                {t('results.loadMore')}
              </Button>
            )}
          </div>
        )}
      </div>
    </div>
  )
}

/** The table view: skeletons while loading, an empty state, an error, or the rows. */
export function ResultsTable() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const { status, empty, search, includeAll } = useResults(
    useShallow((state) => ({
      status: state.status,
      empty: state.rows.length === 0,
      search: state.search.trim(),
      includeAll: state.includeAll,
    }))
  )
  if (status === 'loading') return <TableSkeleton />
  if (status === 'error') {
    return (
      <div className="p-6">
        <EmptyState title={t('results.error.title')} testId="results-error">
          <Button variant="outline" onClick={() => void api.getState().init()}>
            {t('results.error.retry')}
          </Button>
        </EmptyState>
      </div>
    )
  }
  if (empty) {
    return (
      <div className="p-6">
        {search || includeAll ? (
          <EmptyState
            icon={SearchXIcon}
            testId="results-no-match"
            title={t('results.empty.noMatch')}
            description={t('results.empty.noMatchDescription')}
          />
        ) : (
          <EmptyState
            icon={InboxIcon}
            testId="results-empty"
            title={t('results.empty.title')}
            description={t('results.empty.description')}
          />
        )}
      </div>
    )
  }
  return <VirtualTable />
}
