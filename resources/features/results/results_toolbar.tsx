import { memo, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ArchiveIcon, DownloadIcon, SearchIcon, Trash2Icon, XIcon } from 'lucide-react'
import { useShallow } from 'zustand/react/shallow'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Switch } from '~/components/ui/switch'
import { Label } from '~/components/ui/label'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { useDebouncedCallback } from '~/hooks/use_debounced_callback'
import { formatNumber } from '~/lib/format'
import { showToast } from '~/lib/toast'
import { useResults, useResultsApi } from './results_store'
import { ColumnSettings } from './column_settings'
import { useCsvExport } from './use_csv_export'

function errorToast(t: (key: string) => string, error: unknown) {
  const described = error as { message?: string; description?: string }
  showToast('error', described.message || t('results.toasts.failed'), described.description)
}

const SearchBox = memo(function SearchBoxView() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const [value, setValue] = useState(() => api.getState().search)
  const push = useDebouncedCallback((text: string) => api.getState().setSearch(text), 300)
  return (
    <div className="relative w-72 max-w-full">
      <SearchIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        data-testid="results-search"
        type="search"
        value={value}
        aria-label={t('results.search')}
        placeholder={t('results.search')}
        onChange={(event) => {
          setValue(event.target.value)
          push(event.target.value)
        }}
        className="h-8 pl-8"
      />
    </div>
  )
})

const ShowAllSwitch = memo(function ShowAllSwitchView() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const includeAll = useResults((state) => state.includeAll)
  return (
    <div className="flex items-center gap-2">
      <Switch
        id="results-show-all"
        data-testid="results-show-all"
        checked={includeAll}
        onCheckedChange={(checked) => api.getState().setIncludeAll(checked)}
      />
      <Label htmlFor="results-show-all" className="text-sm font-normal text-muted-foreground">
        {t('results.showAll')}
      </Label>
    </div>
  )
})

/** Shown while a selection exists: count, "select all N", archive, delete. */
const SelectionActions = memo(function SelectionActionsView() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const { count, canWrite, canSelectMore, total } = useResults(
    useShallow((state) => ({
      count: state.selectedCount(),
      canWrite: state.canWrite,
      total: state.total ?? 0,
      canSelectMore:
        !state.allMatching &&
        state.nextCursor !== null &&
        state.rows.length > 0 &&
        state.rows.every((row) => state.selected[row.id]),
    }))
  )
  const [confirming, setConfirming] = useState(false)
  if (count === 0) return null

  async function remove() {
    try {
      const deleted = await api.getState().removeSelected()
      showToast('success', t('results.toasts.deleted', { deleted: formatNumber(deleted) }))
    } catch (error) {
      errorToast(t, error)
    }
  }

  async function archive() {
    try {
      const archived = await api.getState().archiveSelected()
      showToast('success', t('results.toasts.archived', { archived: formatNumber(archived) }))
    } catch (error) {
      errorToast(t, error)
    }
  }

  return (
    <div className="flex items-center gap-2" data-testid="results-selection">
      <span className="text-sm font-medium" data-testid="results-selected-count">
        {t('results.selection.selected', { selected: formatNumber(count) })}
      </span>
      {canSelectMore && (
        <Button
          variant="link"
          size="sm"
          className="h-auto px-1"
          data-testid="results-select-all-matching"
          onClick={() => api.getState().selectAllMatching()}
        >
          {t('results.selection.selectAllMatching', { total: formatNumber(total) })}
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={t('results.selection.clear')}
        onClick={() => api.getState().clearSelection()}
      >
        <XIcon />
      </Button>
      {canWrite && (
        <>
          <Button variant="outline" size="sm" data-testid="results-archive" onClick={archive}>
            <ArchiveIcon aria-hidden />
            {t('results.actions.archive')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            data-testid="results-delete"
            className="text-destructive hover:text-destructive"
            onClick={() => setConfirming(true)}
          >
            <Trash2Icon aria-hidden />
            {t('results.actions.delete')}
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t('results.confirmDelete.title')}
            description={t('results.confirmDelete.description', { selected: formatNumber(count) })}
            confirmLabel={t('results.confirmDelete.confirm')}
            onConfirm={remove}
          />
        </>
      )}
    </div>
  )
})

const ExportButton = memo(function ExportButtonView() {
  const { t } = useTranslation()
  const hasSelection = useResults((state) => state.selectedCount() > 0)
  const { progress, start, cancel } = useCsvExport()
  const abortOnUnmount = useRef(cancel)
  abortOnUnmount.current = cancel
  useEffect(() => () => abortOnUnmount.current(), [])

  const run = useCallback(async () => {
    try {
      const done = await start()
      if (done)
        showToast('success', t('results.toasts.exported', { rows: formatNumber(done.rows) }))
    } catch (error) {
      errorToast(t, error)
    }
  }, [start, t])

  if (progress) {
    const ratio = progress.total ? Math.min(1, progress.rows / progress.total) : null
    return (
      <div className="flex items-center gap-2" data-testid="results-export-progress" role="status">
        <div className="h-1.5 w-28 overflow-hidden rounded-full bg-muted">
          <div
            className="h-full bg-primary transition-[width]"
            style={{ width: `${Math.round((ratio ?? 0.15) * 100)}%` }}
          />
        </div>
        <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
          {progress.total !== null
            ? t('results.export.progress', {
                rows: formatNumber(progress.rows),
                total: formatNumber(progress.total),
              })
            : t('results.export.progressUnknown', { rows: formatNumber(progress.rows) })}
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={t('results.export.cancel')}
          onClick={cancel}
        >
          <XIcon />
        </Button>
      </div>
    )
  }
  return (
    <Button variant="outline" size="sm" data-testid="results-export" onClick={run}>
      <DownloadIcon aria-hidden />
      {hasSelection ? t('results.actions.exportSelected') : t('results.actions.exportAll')}
    </Button>
  )
})

const ResultsCount = memo(function ResultsCountView() {
  const { t } = useTranslation()
  const total = useResults((state) => (state.status === 'ready' ? state.total : null))
  if (total === null) return null
  return (
    <span data-testid="results-count" className="text-sm whitespace-nowrap text-muted-foreground">
      {t('results.count', { total: formatNumber(total) })}
    </span>
  )
})

/** Above the table: search, the "show all" toggle, columns, selection actions, export. */
export function ResultsToolbar() {
  return (
    <div className="flex min-w-0 flex-1 flex-wrap items-center gap-3">
      <SearchBox />
      <ShowAllSwitch />
      <ResultsCount />
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <SelectionActions />
        <ColumnSettings />
        <ExportButton />
      </div>
    </div>
  )
}
