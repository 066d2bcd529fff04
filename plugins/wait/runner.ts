import type { SurfaceRunner } from '#sdk/runner'
import type plugin from './index.js'

/** Max wait a chat accepts, so a typo cannot freeze a conversation for days. */
const MAX_SECONDS = 3600

const UNIT_MS = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
} as const

/** ISO date-times without an offset are read as UTC, like the schedule trigger's times. */
function parseDateTime(text: string): Date | undefined {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)
  const withTime = /T\d{2}:\d{2}/.test(trimmed)
  const date = new Date(withTime && !hasZone ? `${trimmed}Z` : trimmed)
  return Number.isNaN(date.getTime()) ? undefined : date
}

type Context = Parameters<SurfaceRunner<typeof plugin>>[0]

/**
 * In a bot the client waits before showing what follows; with shouldPause the flow stops
 * here and goes on when the client calls back after the delay.
 */
function waitInBot({ options, logger }: Context) {
  const seconds = Number(options.secondsToWaitFor ?? 0)
  if (!Number.isFinite(seconds) || seconds <= 0) {
    if (options.secondsToWaitFor !== undefined && String(options.secondsToWaitFor).trim() !== '') {
      logger.error(`Wait: "${options.secondsToWaitFor}" is not a number of seconds`)
    }
    return {}
  }
  return {
    clientSideActions: [
      { type: 'wait', wait: { secondsToWaitFor: Math.min(seconds, MAX_SECONDS) } },
    ],
    pause: Boolean(options.shouldPause),
  }
}

/**
 * In a workflow the executor parks the run. The node passes its input on when a timer
 * resumes it, and the webhook call (method, headers, query, body) when a call resumes it.
 */
export const run: SurfaceRunner<typeof plugin> = (context) => {
  if (context.surface === 'bot') return waitInBot(context)
  const { options, logger } = context
  const mode = options.resume ?? 'interval'
  if (mode === 'webhook') {
    logger.info('Waiting for a call to the run webhook')
    return { wait: { webhook: true } }
  }
  if (mode === 'specificTime') {
    const at = parseDateTime(String(options.dateTime ?? ''))
    if (!at) {
      logger.error(`Wait: "${options.dateTime ?? ''}" is not a date and time`)
      return
    }
    logger.info(`Waiting until ${at.toISOString()}`)
    return { wait: { resumeAt: at.toISOString() } }
  }
  const amount = Number(options.amount ?? 0)
  if (!Number.isFinite(amount) || amount < 0) {
    logger.error(`Wait: "${options.amount}" is not a duration`)
    return
  }
  const unit = options.unit && options.unit in UNIT_MS ? options.unit : 'minutes'
  const resumeAt = new Date(Date.now() + amount * UNIT_MS[unit])
  logger.info(`Waiting ${amount} ${unit}, until ${resumeAt.toISOString()}`)
  return { wait: { resumeAt: resumeAt.toISOString() } }
}

export { fromN8n } from './n8n.js'
