import { memo, useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import type { ResultColumnDto } from '#shared/results/types'
import { columnLabel } from './column_label'

export const HEADER_HEIGHT = 40

const HeaderCell = memo(function HeaderCellView({
  column,
  width,
  onResize,
}: {
  column: ResultColumnDto
  width: number
  onResize: (id: string, width: number) => void
}) {
  const { t } = useTranslation()
  const drag = useRef<{ x: number; width: number } | null>(null)
  const name = columnLabel(column, t)

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault()
    event.currentTarget.setPointerCapture(event.pointerId)
    drag.current = { x: event.clientX, width }
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return
    onResize(column.id, drag.current.width + event.clientX - drag.current.x)
  }
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = null
    event.currentTarget.releasePointerCapture(event.pointerId)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowLeft') onResize(column.id, width - 16)
    else if (event.key === 'ArrowRight') onResize(column.id, width + 16)
    else return
    event.preventDefault()
  }

  return (
    <div
      role="columnheader"
      data-testid="results-column-header"
      data-column-id={column.id}
      className="relative flex h-full min-w-0 items-center gap-2 px-3 text-xs font-semibold text-muted-foreground"
    >
      {column.blockType && (
        <PluginIcon id={column.blockType} className="size-3.5 shrink-0 opacity-70" />
      )}
      <span className="truncate" title={name}>
        {name}
      </span>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={t('results.columns.resize', { name })}
        aria-valuenow={width}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
        className="absolute top-0 right-0 h-full w-2 cursor-col-resize touch-none outline-none after:absolute after:top-2 after:right-0 after:bottom-2 after:w-px after:bg-border hover:after:w-0.5 hover:after:bg-primary focus-visible:after:w-0.5 focus-visible:after:bg-primary"
      />
    </div>
  )
})

/** The sticky header: select all, one resizable header per visible column. */
export const TableHeader = memo(function TableHeaderView({
  columns,
  widths,
  template,
  allChecked,
  someChecked,
  onToggleAll,
  onResize,
}: {
  columns: ResultColumnDto[]
  widths: number[]
  template: string
  allChecked: boolean
  someChecked: boolean
  onToggleAll: () => void
  onResize: (id: string, width: number) => void
}) {
  const { t } = useTranslation()
  const checkbox = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (checkbox.current) checkbox.current.indeterminate = someChecked && !allChecked
  }, [someChecked, allChecked])
  return (
    <div
      role="row"
      aria-rowindex={1}
      className="sticky top-0 z-10 grid border-b bg-muted/80 backdrop-blur"
      style={{ gridTemplateColumns: template, height: HEADER_HEIGHT }}
    >
      <div role="columnheader" className="flex h-full items-center justify-center">
        <input
          ref={checkbox}
          type="checkbox"
          data-testid="results-select-all"
          aria-label={t('results.selection.selectAll')}
          checked={allChecked}
          onChange={onToggleAll}
          className="size-4 accent-primary"
        />
      </div>
      {columns.map((column, index) => (
        <HeaderCell key={column.id} column={column} width={widths[index]} onResize={onResize} />
      ))}
      <div role="columnheader" aria-hidden />
    </div>
  )
})
