import { Analytics, type HTTPClient, type HTTPClientRequest } from '@segment/analytics-node'
import type { HttpClient, Runner } from '#sdk/plugin'
import { SEGMENT_DEFAULT_HOST } from './index.js'
import type plugin from './index.js'

type Entry = { key?: string; value?: string }

/** Key/value rows as an object; rows without a key are left out. */
function objectOf(entries: Entry[] | undefined) {
  const result: Record<string, string> = {}
  for (const entry of entries ?? []) {
    const key = entry.key?.trim()
    if (key) result[key] = entry.value ?? ''
  }
  return result
}

/** The SDK's requests go through the guarded client: internal hosts refused, timeouts. */
function guardedClient(http: HttpClient, signal: AbortSignal | undefined): HTTPClient {
  return {
    async makeRequest(request: HTTPClientRequest) {
      const response = await http.request(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        timeoutMs: request.httpRequestTimeout,
        signal,
      })
      return {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        text: () => response.text(),
      }
    },
  }
}

type Call = (analytics: Analytics) => void

/**
 * One client per block run: the calls are queued, then flushed (closeAndFlush) before the
 * block ends, so nothing waits in memory for a later batch. Delivery errors are logged and
 * the flow goes on (docs/plugins.md, "Errors").
 */
async function send(
  context: Parameters<Runner<typeof plugin, 'Track'>>[0],
  call: Call,
  summary: string
) {
  const { credentials, http, logger, signal } = context
  const writeKey = String(credentials.apiKey ?? '').trim()
  if (!writeKey) return
  const host = String(credentials.host || SEGMENT_DEFAULT_HOST).replace(/\/+$/, '')
  const analytics = new Analytics({
    writeKey,
    host,
    maxRetries: 2,
    httpRequestTimeout: 10_000,
    httpClient: guardedClient(http, signal),
  })
  const errors: string[] = []
  analytics.on('error', (error) => {
    const reason = (error as { reason?: unknown }).reason
    errors.push(reason instanceof Error ? reason.message : String(error.code ?? error))
  })
  call(analytics)
  await analytics.closeAndFlush({ timeout: 15_000 })
  if (errors.length > 0) {
    return void logger.error('Segment did not accept the call', { errors })
  }
  logger.success(summary)
  return { output: { sent: true } }
}

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined)

const identify: Runner<typeof plugin, 'Identify'> = async (context) => {
  const { options } = context
  const userId = present(options.userId)
  if (!userId) return
  const traits = { ...objectOf(options.traits) }
  const email = present(options.email)
  if (email) traits.email = email
  return send(context, (a) => a.identify({ userId, traits }), `Identified ${userId}`)
}

const track: Runner<typeof plugin, 'Track'> = async (context) => {
  const { options } = context
  const userId = present(options.userId)
  const event = present(options.eventName)
  if (!userId || !event) return
  const properties = objectOf(options.properties)
  return send(context, (a) => a.track({ userId, event, properties }), `Tracked "${event}"`)
}

const alias: Runner<typeof plugin, 'Alias'> = async (context) => {
  const { options } = context
  const userId = present(options.userId)
  const previousId = present(options.previousId)
  if (!userId || !previousId) return
  return send(context, (a) => a.alias({ userId, previousId }), `Aliased ${previousId} to ${userId}`)
}

const page: Runner<typeof plugin, 'Page'> = async (context) => {
  const { options } = context
  const userId = present(options.userId)
  if (!userId) return
  const name = present(options.name)
  const category = present(options.category)
  const properties = objectOf(options.properties)
  return send(
    context,
    (a) => a.page({ userId, name, category, properties }),
    `Page ${name ?? ''} sent`.replace('  ', ' ')
  )
}

export default { Identify: identify, Track: track, Alias: alias, Page: page }
