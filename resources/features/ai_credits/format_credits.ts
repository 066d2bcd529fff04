import i18n from 'i18next'

/**
 * Credits as people read them: 2 to `maxDigits` decimals in the interface language. The
 * exact 9-decimal text stays available for tooltips (a balance of 0.00001 would read 0.00).
 */
export function formatCredits(value: string | number, maxDigits = 4) {
  const number = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(number)) return String(value)
  return new Intl.NumberFormat(i18n.language || 'en', {
    minimumFractionDigits: 2,
    maximumFractionDigits: maxDigits,
  }).format(number)
}
