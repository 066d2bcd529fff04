import type { TFunction } from 'i18next'
import type { ResultColumnDto } from '#shared/results/types'

/**
 * A column's header: "Submitted at" and "Language" in the interface language, else the
 * server's label.
 */
export function columnLabel(column: ResultColumnDto, t: TFunction) {
  if (column.kind === 'submittedAt') return t('results.columns.submittedAt')
  if (column.kind === 'language') return t('results.columns.language')
  return column.label
}
