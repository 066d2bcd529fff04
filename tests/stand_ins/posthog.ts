import { flushAnalytics } from '#services/analytics/analytics'
import { putEnv } from '#tests/billing_helpers'
import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * A PostHog-compatible collector: `POST /batch/` with `{ api_key, batch: [{ event, distinct_id,
 * properties, timestamp }] }` answers 200 `{ status: 1 }` for the project's key and 401
 * otherwise, as PostHog's capture API does. `events` lists what it accepted, oldest first;
 * `failWith(status)` makes every call answer that status until `failWith(null)`.
 */
export async function startPostHogStandIn(apiKey: string) {
  const events: { event: string; distinct_id: string; properties: any; timestamp: string }[] = []
  let failure: number | null = null
  const standIn = await startStandIn(({ req, res, url, body }) => {
    if (req.method !== 'POST' || url.pathname !== '/batch/') return sendJson(res, 404, {})
    if (failure) return sendJson(res, failure, { type: 'server_error' })
    if (!body || body.api_key !== apiKey || !Array.isArray(body.batch)) {
      return sendJson(res, 401, { type: 'authentication_error', detail: 'Invalid API key' })
    }
    events.push(...body.batch)
    sendJson(res, 200, { status: 1 })
  })
  return {
    ...standIn,
    events,
    /** The accepted events with this name. */
    named: (name: string) => events.filter((event) => event.event === name),
    failWith(status: number | null) {
      failure = status
    },
  }
}

/**
 * Points the app's analytics at a fresh collector for one test; what was waiting before is
 * sent elsewhere first, and what waits at the end is sent before the collector stops.
 */
export async function collectAnalytics(cleanup: (fn: () => Promise<void>) => void) {
  const apiKey = 'phc_flowcraft_test'
  const posthog = await startPostHogStandIn(apiKey)
  await flushAnalytics()
  const restore = putEnv({
    ANALYTICS_SINK: 'posthog',
    POSTHOG_HOST: posthog.baseUrl,
    POSTHOG_API_KEY: apiKey,
  })
  cleanup(async () => {
    await flushAnalytics()
    restore()
    await posthog.close()
  })
  return {
    ...posthog,
    /** Sends what the app holds and forgets everything received: what follows starts clean. */
    async forget() {
      await flushAnalytics()
      posthog.events.length = 0
    },
  }
}
