import i18n from 'i18next'
import { parseDuration } from '#shared/plans'

/** Dates and numbers in the interface language. */
export function formatDate(
  value: string | null | undefined,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }
) {
  if (!value) return ''
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(i18n.language || 'en', options).format(date)
}

export function formatDateTime(value: string | null | undefined) {
  return formatDate(value, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatNumber(value: number) {
  return new Intl.NumberFormat(i18n.language || 'en').format(value)
}

/** Prices are stored in cents (USD). */
export function formatPrice(cents: number, currency = 'USD') {
  return new Intl.NumberFormat(i18n.language || 'en', {
    style: 'currency',
    currency,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100)
}

/** A plan's period ('2 years', '1 month') in the interface language: "2 Jahre", "1 mois". */
export function formatPlanDuration(duration: string) {
  const { years, months, days } = parseDuration(duration)
  const [value, unit] =
    years !== undefined
      ? [years, 'year']
      : months !== undefined
        ? [months, 'month']
        : [days ?? 0, 'day']
  return new Intl.NumberFormat(i18n.language || 'en', {
    style: 'unit',
    unit,
    unitDisplay: 'long',
  }).format(value)
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

/** "5 minutes ago", "yesterday"… in the interface language. */
export function formatRelativeTime(value: string | null | undefined, now = Date.now()) {
  if (!value) return ''
  const time = new Date(value).getTime()
  if (Number.isNaN(time)) return ''
  const seconds = Math.round((time - now) / 1000)
  const format = new Intl.RelativeTimeFormat(i18n.language || 'en', { numeric: 'auto' })
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      // Under a minute reads "now" rather than a count of seconds.
      if (unit === 'second' && Math.abs(seconds) < 45) return format.format(0, 'second')
      return format.format(Math.round(seconds / size), unit)
    }
  }
  return ''
}
