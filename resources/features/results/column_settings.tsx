import { memo, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { ArrowDownIcon, ArrowUpIcon, Columns3Icon } from 'lucide-react'
import { useShallow } from 'zustand/react/shallow'
import { Button } from '~/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover'
import { isColumnVisible, orderColumns } from './column_layout'
import { columnLabel } from './column_label'
import { useResults, useResultsApi } from './results_store'

/** Which columns show, and in which order (saved on the bot in write mode). */
export const ColumnSettings = memo(function ColumnSettingsView() {
  const { t } = useTranslation()
  const api = useResultsApi()
  const { columns, preferences } = useResults(
    useShallow((state) => ({ columns: state.columns, preferences: state.preferences }))
  )
  const ordered = useMemo(() => orderColumns(columns, preferences), [columns, preferences])

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" data-testid="results-columns">
          <Columns3Icon aria-hidden />
          {t('results.columns.button')}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-72 p-2">
        <p className="px-2 pt-1 pb-2 text-sm font-medium">{t('results.columns.title')}</p>
        <ul className="max-h-80 space-y-0.5 overflow-y-auto" data-testid="results-columns-list">
          {ordered.map((column, index) => {
            const name = columnLabel(column, t)
            const inputId = `results-column-${column.id}`
            return (
              <li
                key={column.id}
                className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-muted"
              >
                <input
                  id={inputId}
                  type="checkbox"
                  data-testid="results-column-toggle"
                  data-column-id={column.id}
                  checked={isColumnVisible(column.id, preferences)}
                  onChange={(event) =>
                    api.getState().setColumnVisible(column.id, event.target.checked)
                  }
                  className="size-4 accent-primary"
                />
                <label htmlFor={inputId} className="min-w-0 flex-1 truncate text-sm" title={name}>
                  {name}
                </label>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="size-6"
                  disabled={index === 0}
                  aria-label={t('results.columns.moveUp', { name })}
                  onClick={() => api.getState().moveColumn(column.id, -1)}
                >
                  <ArrowUpIcon />
                </Button>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="size-6"
                  disabled={index === ordered.length - 1}
                  aria-label={t('results.columns.moveDown', { name })}
                  onClick={() => api.getState().moveColumn(column.id, 1)}
                >
                  <ArrowDownIcon />
                </Button>
              </li>
            )
          })}
        </ul>
      </PopoverContent>
    </Popover>
  )
})
