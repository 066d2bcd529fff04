import type { N8nConverter } from '#sdk/n8n'

const clamp = (value: unknown, min: number, max: number, fallback: number) => {
  const number = Number(value)
  return Number.isFinite(number) ? Math.min(max, Math.max(min, Math.round(number))) : fallback
}

/** `m h * * *`-like cron expressions our modes can say; undefined for the others. */
function fromCron(expression: string) {
  const [minute, hour, dayOfMonth, month, dayOfWeek, extra] = expression.trim().split(/\s+/)
  if (extra !== undefined || month !== '*') return undefined
  const whole = (text: string) => /^\d+$/.test(text)
  const every = minute.match(/^\*\/(\d+)$/)
  if (every && hour === '*' && dayOfMonth === '*' && dayOfWeek === '*') {
    return { mode: 'minutes', minutesInterval: clamp(every[1], 1, 59, 1) }
  }
  if (!whole(minute)) return undefined
  if (hour === '*' && dayOfMonth === '*' && dayOfWeek === '*') {
    return { mode: 'hourly', minute: Number(minute) }
  }
  if (!whole(hour)) return undefined
  const at = { hour: Number(hour), minute: Number(minute) }
  if (dayOfMonth === '*' && dayOfWeek === '*') return { mode: 'daily', ...at }
  if (dayOfMonth === '*' && whole(dayOfWeek)) {
    return { mode: 'weekly', dayOfWeek: Number(dayOfWeek) % 7, ...at }
  }
  if (whole(dayOfMonth) && dayOfWeek === '*') {
    return { mode: 'monthly', dayOfMonth: Number(dayOfMonth), ...at }
  }
  return undefined
}

/** One rule of the Schedule Trigger (`rule.interval[]`), n8n's default being daily at 0:00. */
function fromRule(rule: any, lost: (what: string) => void) {
  const at = {
    hour: clamp(rule.triggerAtHour, 0, 23, 0),
    minute: clamp(rule.triggerAtMinute, 0, 59, 0),
  }
  const interval = (key: string) => {
    if (Number(rule[key] ?? 1) > 1) lost(`every ${rule[key]} ${rule.field} (every one is used)`)
  }
  switch (rule.field ?? 'days') {
    case 'seconds':
      lost('a schedule in seconds (every minute is used)')
      return { mode: 'minutes', minutesInterval: 1 }
    case 'minutes':
      return { mode: 'minutes', minutesInterval: clamp(rule.minutesInterval, 1, 59, 5) }
    case 'hours':
      interval('hoursInterval')
      return { mode: 'hourly', minute: at.minute }
    case 'days':
      interval('daysInterval')
      return { mode: 'daily', ...at }
    case 'weeks': {
      interval('weeksInterval')
      const days = Array.isArray(rule.triggerAtDay) ? rule.triggerAtDay : [0]
      if (days.length > 1) lost(`the days ${days.join(', ')} (only the first is kept)`)
      return { mode: 'weekly', dayOfWeek: clamp(days[0], 0, 6, 0), ...at }
    }
    case 'months':
      interval('monthsInterval')
      return { mode: 'monthly', dayOfMonth: clamp(rule.triggerAtDayOfMonth, 1, 31, 1), ...at }
    case 'cronExpression': {
      const found = fromCron(String(rule.expression ?? ''))
      if (found) return found
      lost(`the cron expression "${rule.expression}" (every day at 0:00 is used)`)
      return { mode: 'daily', hour: 0, minute: 0 }
    }
    default:
      lost(`the schedule "${rule.field}"`)
      return { mode: 'daily', hour: 0, minute: 0 }
  }
}

/** The legacy Cron node (`triggerTimes.item[]`). */
function fromCronNode(item: any, lost: (what: string) => void) {
  const at = { hour: clamp(item.hour, 0, 23, 14), minute: clamp(item.minute, 0, 59, 0) }
  switch (item.mode) {
    case 'everyMinute':
      return { mode: 'minutes', minutesInterval: 1 }
    case 'everyHour':
      return { mode: 'hourly', minute: at.minute }
    case 'everyX':
      if (item.unit === 'minutes') {
        return { mode: 'minutes', minutesInterval: clamp(item.value, 1, 59, 1) }
      }
      lost(`every ${item.value} ${item.unit} (every hour is used)`)
      return { mode: 'hourly', minute: 0 }
    case 'everyWeek':
      return { mode: 'weekly', dayOfWeek: clamp(item.weekday, 0, 6, 1), ...at }
    case 'everyMonth':
      return { mode: 'monthly', dayOfMonth: clamp(item.dayOfMonth, 1, 31, 1), ...at }
    case 'custom': {
      const found = fromCron(
        String(item.cronExpression ?? '').replace(/^\S+\s+(?=\S+\s+\S+\s+\S+\s+\S+\s+\S+$)/, '')
      )
      if (found) return found
      lost(`the cron expression "${item.cronExpression}" (every day at 0:00 is used)`)
      return { mode: 'daily', hour: 0, minute: 0 }
    }
    default:
      return { mode: 'daily', ...at }
  }
}

/** n8n's Schedule Trigger and its predecessor, the Cron node; times are read as UTC here. */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const rules: any[] = node.type.endsWith('.cron')
    ? (p.triggerTimes?.item ?? [{ mode: 'everyDay' }])
    : (p.rule?.interval ?? [{ field: 'days' }])
  if (rules.length > 1)
    tools.lost(`${rules.length - 1} more schedule rule(s) (only the first is kept)`)
  const first = rules[0] ?? {}
  const options = node.type.endsWith('.cron')
    ? fromCronNode(first, tools.lost)
    : fromRule(first, tools.lost)
  return { options }
}
