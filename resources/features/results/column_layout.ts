import type { ResultsTablePreferences } from '#shared/bot/types'
import type { ResultColumnDto } from '#shared/results/types'

export const DEFAULT_COLUMN_WIDTH = 200
export const MIN_COLUMN_WIDTH = 80
export const MAX_COLUMN_WIDTH = 800

/** Columns in the saved order; columns the preferences do not know yet come last. */
export function orderColumns(
  columns: ResultColumnDto[],
  preferences: ResultsTablePreferences
): ResultColumnDto[] {
  const order = preferences.columnsOrder ?? []
  const rank = new Map(order.map((id, index) => [id, index]))
  return columns
    .map((column, index) => ({ column, index }))
    .sort((a, b) => {
      const ra = rank.get(a.column.id) ?? order.length + a.index
      const rb = rank.get(b.column.id) ?? order.length + b.index
      return ra - rb
    })
    .map(({ column }) => column)
}

export function isColumnVisible(id: string, preferences: ResultsTablePreferences) {
  return preferences.columnsVisibility?.[id] !== false
}

export function columnWidth(id: string, preferences: ResultsTablePreferences) {
  const width = preferences.columnsWidth?.[id]
  return typeof width === 'number' && Number.isFinite(width)
    ? clampWidth(width)
    : DEFAULT_COLUMN_WIDTH
}

export function clampWidth(width: number) {
  return Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)))
}

/** The order with `id` moved by `delta` places (-1 up/left, +1 down/right). */
export function moveInOrder(orderedIds: string[], id: string, delta: number): string[] {
  const from = orderedIds.indexOf(id)
  const to = from + delta
  if (from === -1 || to < 0 || to >= orderedIds.length) return orderedIds
  const next = [...orderedIds]
  next.splice(from, 1)
  next.splice(to, 0, id)
  return next
}
