import i18n from 'i18next'

/** 0.25 → "25%" in the interface language (one decimal at most). */
export function formatPercent(rate: number) {
  return new Intl.NumberFormat(i18n.language || 'en', {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(rate)
}
