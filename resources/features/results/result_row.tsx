import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollTextIcon } from 'lucide-react'
import type { ResultColumnDto, ResultRowDto } from '#shared/results/types'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { cn } from '~/lib/utils'
import { ResultCell } from './result_cell'

export const ROW_HEIGHT = 40

/**
 * One result in the virtual list: absolutely placed at its index. Memoised: scrolling or
 * selecting another row does not re-render it.
 */
export const ResultRow = memo(function ResultRowView({
  row,
  index,
  columns,
  template,
  selected,
  onToggle,
  onOpen,
}: {
  row: ResultRowDto
  index: number
  columns: ResultColumnDto[]
  template: string
  selected: boolean
  onToggle: (id: string) => void
  onOpen: (id: string) => void
}) {
  const { t } = useTranslation()
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="result-row"
      data-result-id={row.id}
      className={cn(
        'absolute right-0 left-0 grid items-center border-b text-sm',
        selected ? 'bg-primary/5' : 'bg-background hover:bg-muted/50'
      )}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT, gridTemplateColumns: template }}
    >
      <div role="cell" className="flex h-full items-center justify-center">
        <input
          type="checkbox"
          data-testid="result-select"
          aria-label={t('results.selection.selectRow')}
          checked={selected}
          onChange={() => onToggle(row.id)}
          className="size-4 accent-primary"
        />
      </div>
      {columns.map((column, position) => (
        <div
          key={column.id}
          role="cell"
          data-column-id={column.id}
          className="flex h-full min-w-0 items-center gap-2 overflow-hidden px-3"
        >
          <ResultCell column={column} value={row.cells[column.id] ?? ''} />
          {position === 0 && row.isArchived && (
            <Badge variant="secondary">{t('results.status.archived')}</Badge>
          )}
          {position === 0 && !row.hasStarted && !row.isArchived && (
            <Badge variant="outline">{t('results.status.view')}</Badge>
          )}
        </div>
      ))}
      <div role="cell" className="flex h-full items-center justify-center">
        <Button
          variant="ghost"
          size="icon-sm"
          data-testid="result-open-logs"
          aria-label={t('results.actions.openLogs')}
          onClick={() => onOpen(row.id)}
        >
          <ScrollTextIcon />
        </Button>
      </div>
    </div>
  )
})
