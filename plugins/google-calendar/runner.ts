import type { Runner, RunnerContext } from '#sdk/plugin'
import { callGoogle, googleUrl, type GoogleRequest } from '#sdk/google'
import type plugin from './index.js'
import { CALENDAR_DEFAULT_BASE_URL, CALENDAR_MAX_RESULTS, EMAIL_PATTERN } from './index.js'

/**
 * The Calendar API v3 calls. Options arrive with their variables substituted, so the
 * attendees' e-mails are checked again here: one bad address refuses the event before
 * anything is sent. A failure is an error log (the workflow node fails, its retries apply).
 */

type Options = Record<string, any>
type Context = RunnerContext<Options, Record<string, unknown>>

const EMAIL = new RegExp(EMAIL_PATTERN)

function text(value: unknown) {
  return typeof value === 'string'
    ? value.trim()
    : value === undefined || value === null
      ? ''
      : String(value)
}

function eventsPath(calendarId: string, eventId?: string) {
  const calendar = encodeURIComponent(calendarId || 'primary')
  return `/calendar/v3/calendars/${calendar}/events${eventId ? `/${encodeURIComponent(eventId)}` : ''}`
}

async function calendarCall<T>(context: Context, path: string, request: GoogleRequest) {
  const base = text(context.credentials.baseUrl) || CALENDAR_DEFAULT_BASE_URL
  return callGoogle<T>(
    context.credentials,
    'Google Calendar',
    googleUrl(base, path, request.query),
    request,
    { http: context.http, signal: context.signal }
  )
}

/** `{ dateTime, timeZone }`, or `{ date }` for an all-day value (YYYY-MM-DD). */
function when(value: string, timeZone: string) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { date: value }
  if (Number.isNaN(Date.parse(value))) {
    throw new Error(`"${value}" is not a date and time (ISO 8601, e.g. 2026-03-02T10:00:00Z)`)
  }
  return timeZone ? { dateTime: value, timeZone } : { dateTime: value }
}

/** The event body from the options: only what is filled in (an update patches those). */
export function eventBody(options: Options) {
  const body: Record<string, unknown> = {}
  const timeZone = text(options.timeZone)
  for (const key of ['summary', 'description', 'location'] as const) {
    if (text(options[key])) body[key] = text(options[key])
  }
  if (text(options.start)) body.start = when(text(options.start), timeZone)
  if (text(options.end)) body.end = when(text(options.end), timeZone)
  const attendees = (Array.isArray(options.attendees) ? options.attendees : [])
    .map((attendee: { email?: string }) => text(attendee?.email))
    .filter(Boolean)
  const invalid = attendees.filter((email: string) => !EMAIL.test(email))
  if (invalid.length > 0) {
    throw new Error(
      `Attendees need a valid e-mail: ${invalid.map((e: string) => `"${e}"`).join(', ')}`
    )
  }
  if (attendees.length > 0) body.attendees = attendees.map((email: string) => ({ email }))
  return body
}

function sendUpdates(options: Options) {
  return ['all', 'externalOnly', 'none'].includes(options.sendUpdates)
    ? options.sendUpdates
    : 'none'
}

async function attempt<T>(context: Context, failure: string, work: () => Promise<T>) {
  try {
    return { ok: true as const, value: await work() }
  } catch (error) {
    context.logger.error(failure, error instanceof Error ? error.message : String(error))
    return { ok: false as const }
  }
}

const listEvents: Runner<typeof plugin, 'List events'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const requested = Number(options.maxResults ?? CALENDAR_MAX_RESULTS)
  if (!Number.isInteger(requested) || requested < 1 || requested > CALENDAR_MAX_RESULTS) {
    return void logger.error(
      'List events failed',
      `At most must be a whole number from 1 to ${CALENDAR_MAX_RESULTS}`
    )
  }
  const done = await attempt(context, 'List events failed', () =>
    calendarCall<{ items?: unknown[] }>(context, eventsPath(text(options.calendarId)), {
      query: {
        maxResults: requested,
        singleEvents: true,
        orderBy: 'startTime',
        timeMin: text(options.timeMin) || new Date().toISOString(),
        timeMax: text(options.timeMax) || undefined,
        q: text(options.query) || undefined,
      },
    })
  )
  if (!done.ok) return
  const events = done.value?.items ?? []
  logger.success(`${events.length} events found`)
  return { output: { events, count: events.length } }
}

const createEvent: Runner<typeof plugin, 'Create event'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const done = await attempt(context, 'Create event failed', async () => {
    const body = eventBody(options)
    if (!body.summary) throw new Error('The title is empty')
    if (!body.start || !body.end) throw new Error('The start and the end are required')
    return calendarCall<Record<string, unknown>>(context, eventsPath(text(options.calendarId)), {
      method: 'POST',
      query: { sendUpdates: sendUpdates(options) },
      body,
    })
  })
  if (!done.ok) return
  logger.success(`Event "${String(done.value?.summary ?? '')}" created`)
  return { output: done.value }
}

const updateEvent: Runner<typeof plugin, 'Update event'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const eventId = text(options.eventId)
  if (!eventId) return void logger.error('Update event failed', 'The event ID is empty')
  const done = await attempt(context, 'Update event failed', async () => {
    const body = eventBody(options)
    if (Object.keys(body).length === 0) throw new Error('Nothing to update: fill in a field')
    return calendarCall<Record<string, unknown>>(
      context,
      eventsPath(text(options.calendarId), eventId),
      { method: 'PATCH', query: { sendUpdates: sendUpdates(options) }, body }
    )
  })
  if (!done.ok) return
  logger.success('Event updated')
  return { output: done.value }
}

const deleteEvent: Runner<typeof plugin, 'Delete event'> = async (raw) => {
  const context = raw as unknown as Context
  const { options, logger } = context
  const eventId = text(options.eventId)
  if (!eventId) return void logger.error('Delete event failed', 'The event ID is empty')
  const done = await attempt(context, 'Delete event failed', () =>
    calendarCall(context, eventsPath(text(options.calendarId), eventId), { method: 'DELETE' })
  )
  if (!done.ok) return
  logger.success('Event deleted')
  return { output: { eventId, deleted: true } }
}

export default {
  'List events': listEvents,
  'Create event': createEvent,
  'Update event': updateEvent,
  'Delete event': deleteEvent,
}
