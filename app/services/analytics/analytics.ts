import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { createGuardedHttp } from '#plugins/guarded_http'

/*
| Product analytics: what operators count, such as sign-ups,
| publishes and limits reached. Each event is sent by the action that causes it, through one
| sink chosen by the environment (docs/analytics.md): the server log by default, a
| PostHog-compatible capture endpoint, or nothing. Sending never delays or fails the action:
| events wait in memory and leave in batches.
*/

export const ANALYTICS_EVENTS = [
  'Workspace created',
  'User created',
  'User logged in',
  'Bot created',
  'Bot published',
  'Results collected',
  'Limit reached',
  'Workspace quarantined',
  'Workspace past due',
  'Branding removed',
] as const

export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number]

export interface AnalyticsEvent {
  name: AnalyticsEventName
  /** Who did it, when a person did. */
  userId?: string | null
  workspaceId?: string | null
  properties?: Record<string, unknown>
}

interface Captured extends AnalyticsEvent {
  at: string
}

export interface AnalyticsSink {
  send(events: Captured[]): Promise<void>
}

const BATCH_SIZE = 50
const FLUSH_MS = 2_000
const RESULTS_FLUSH_MS = 60_000

const logSink: AnalyticsSink = {
  async send(events) {
    for (const event of events) logger.info({ analytics: event }, `analytics: ${event.name}`)
  },
}

/** PostHog's batch capture (`POST {host}/batch/`), which other collectors also accept. */
function captureSink(host: string, apiKey: string): AnalyticsSink {
  // The operator chose this address: it may be on their own network.
  const http = createGuardedHttp({ allowInternal: true, timeoutMs: 10_000 })
  const url = `${host.replace(/\/+$/, '')}/batch/`
  return {
    async send(events) {
      const response = await http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          api_key: apiKey,
          batch: events.map((event) => ({
            event: event.name,
            distinct_id: event.userId ?? event.workspaceId ?? 'server',
            timestamp: event.at,
            properties: {
              ...event.properties,
              ...(event.workspaceId
                ? { workspaceId: event.workspaceId, $groups: { workspace: event.workspaceId } }
                : {}),
            },
          })),
        }),
      })
      await response.body?.cancel()
      if (!response.ok) throw new Error(`the collector answered ${response.status}`)
    },
  }
}

let chosen: { key: string; sink: AnalyticsSink | null } | undefined

/** The sink the environment names, made again when the environment changes (tests). */
function currentSink(): AnalyticsSink | null {
  const kind = env.get('ANALYTICS_SINK') ?? 'log'
  const host = env.get('POSTHOG_HOST') ?? ''
  const apiKey = env.get('POSTHOG_API_KEY') ?? ''
  const key = `${kind}|${host}|${apiKey}`
  if (!chosen || chosen.key !== key) {
    chosen = {
      key,
      sink:
        kind === 'off'
          ? null
          : kind === 'posthog' && host && apiKey
            ? captureSink(host, apiKey)
            : logSink,
    }
  }
  return chosen.sink
}

let waiting: Captured[] = []
let timer: NodeJS.Timeout | undefined
const resultCounts = new Map<string, number>()
let resultsTimer: NodeJS.Timeout | undefined

/** Records an event; it leaves with the next batch. */
export function track(event: AnalyticsEvent) {
  if (!currentSink()) return
  waiting.push({ ...event, at: new Date().toISOString() })
  if (waiting.length >= BATCH_SIZE) void flushAnalytics()
  else if (!timer) timer = setTimeout(() => void flushAnalytics(), FLUSH_MS).unref()
}

/**
 * Counts new results of a workspace. A chat per event would cost every chat a log line or a
 * request at the rate chats arrive; one "Results collected" per workspace and minute carries
 * the same count.
 */
export function countResults(workspaceId: string, count = 1) {
  if (!currentSink()) return
  resultCounts.set(workspaceId, (resultCounts.get(workspaceId) ?? 0) + count)
  if (!resultsTimer) {
    resultsTimer = setTimeout(() => void flushAnalytics(), RESULTS_FLUSH_MS).unref()
  }
}

/** Sends whatever waits (also called when the process stops). */
export async function flushAnalytics() {
  clearTimeout(timer)
  timer = undefined
  clearTimeout(resultsTimer)
  resultsTimer = undefined
  for (const [workspaceId, total] of resultCounts) {
    waiting.push({
      name: 'Results collected',
      workspaceId,
      properties: { total },
      at: new Date().toISOString(),
    })
  }
  resultCounts.clear()
  const sink = currentSink()
  if (!sink || waiting.length === 0) {
    waiting = []
    return
  }
  const events = waiting
  waiting = []
  try {
    for (let i = 0; i < events.length; i += BATCH_SIZE) {
      await sink.send(events.slice(i, i + BATCH_SIZE))
    }
  } catch (error) {
    // Analytics never fail the product: the events are dropped, the operator sees why.
    logger.warn({ err: error, dropped: events.length }, 'analytics: events could not be sent')
  }
}
