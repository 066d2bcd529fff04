import type { HandleEvent, OnActivate, WorkflowRunner } from '#sdk/runner'
import { callSlack, eventTypesOf, signatureProblem } from './api.js'
import type plugin from './index.js'

type SlackEvent = Record<string, any> & { type?: string }

/** The channel an event happened in (messages carry it, reactions carry it in `item`). */
function channelOf(event: SlackEvent): string | undefined {
  return event.channel?.id ?? event.channel ?? event.item?.channel ?? event.channel_id
}

/** The bot token must work before the workflow is active (the events need nothing set up). */
export const onActivate: OnActivate = async ({ credentials, http, signal }) => {
  if (!String(credentials.signingSecret ?? '').trim()) {
    throw new Error('Slack: the signing secret is missing')
  }
  await callSlack(credentials, 'auth.test', { http, signal })
}

/**
 * A call of the Events API. Everything is checked against the signing secret first (the
 * URL verification too), then: the challenge is answered, an event the options filter out
 * is acknowledged without a run, any other starts one.
 */
export const handleEvent: HandleEvent = ({ request, credentials, options }) => {
  const problem = signatureProblem(
    String(credentials.signingSecret ?? ''),
    request.headers,
    request.rawBody
  )
  if (problem) return { respond: { status: 401, body: { error: problem } } }

  const body = (request.body ?? {}) as Record<string, any>
  if (body.type === 'url_verification') {
    return { respond: { status: 200, body: { challenge: body.challenge } } }
  }
  const event = body.event as SlackEvent | undefined
  if (body.type !== 'event_callback' || !event || typeof event !== 'object') {
    return { respond: { status: 200, body: { ok: true, ignored: body.type ?? null } } }
  }
  const ignored = { respond: { status: 200, body: { ok: true, ignored: event.type ?? null } } }
  const types = eventTypesOf(options.eventTypes)
  if (types.length > 0 && !types.includes(String(event.type))) return ignored
  const channel = String(options.channelId ?? '').trim()
  if (channel && channelOf(event) !== channel) return ignored
  if (options.ignoreBots !== false && (event.bot_id || event.subtype === 'bot_message')) {
    return ignored
  }
  return {
    // Slack sends an event again (same event_id) when our 200 took over 3 s.
    deliveryId: body.event_id ? String(body.event_id) : null,
    runInput: {
      type: event.type,
      event,
      teamId: body.team_id ?? null,
      apiAppId: body.api_app_id ?? null,
      eventId: body.event_id ?? null,
      eventTime: body.event_time ?? null,
    },
  }
}

/** The event is the trigger's output ({{$input.event.text}}, {{$input.event.channel}}). */
export const run: WorkflowRunner<typeof plugin> = ({ workflow }) => ({
  output: workflow?.input ?? null,
})
