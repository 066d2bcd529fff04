import type { TFunction } from 'i18next'
import type { ResultColumnDto } from '#shared/results/types'

/** A column's header: "Submitted at" in the interface language, else the server's label. */
export function columnLabel(column: ResultColumnDto, t: TFunction) {
  return column.kind === 'submittedAt' ? t('results.columns.submittedAt') : column.label
}
