import { timingSafeEqual } from 'node:crypto'
import type { WorkflowRunner } from '#sdk/runner'
import type plugin from './index.js'

/** Where callers put the secret; the query parameter is for services that cannot set headers. */
export const SECRET_HEADER = 'x-webhook-secret'
export const SECRET_QUERY = 'secret'

/** A webhook call as the route receives it. */
export interface WebhookCall {
  method: string
  headers: Record<string, string | string[] | undefined>
  query: Record<string, unknown>
  body: unknown
}

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return single(value[0])
  return typeof value === 'string' ? value : undefined
}

/** Constant-time comparison, so the secret cannot be guessed from response times. */
function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Whether the call may start a run: the configured method, and the secret when one is set. */
export function acceptsCall(
  options: { method?: string; secret?: string },
  call: Pick<WebhookCall, 'method' | 'headers' | 'query'>
): { ok: true } | { ok: false; status: 401 | 405 } {
  const method = (options.method ?? 'POST').toUpperCase()
  if (call.method.toUpperCase() !== method) return { ok: false, status: 405 }
  const secret = options.secret?.trim()
  if (!secret) return { ok: true }
  const headerName = Object.keys(call.headers).find((key) => key.toLowerCase() === SECRET_HEADER)
  const given =
    single(headerName ? call.headers[headerName] : undefined) ?? single(call.query[SECRET_QUERY])
  return given !== undefined && sameSecret(given, secret)
    ? { ok: true }
    : { ok: false, status: 401 }
}

/** The run's input: the call without its secret, so run records never store it. */
export function webhookInput(call: WebhookCall) {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(call.headers)) {
    if (key.toLowerCase() === SECRET_HEADER || value === undefined) continue
    headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  const query = { ...call.query }
  delete query[SECRET_QUERY]
  return { method: call.method.toUpperCase(), headers, query, body: call.body ?? null }
}

/** The call is the trigger's output, for the nodes after it to read ({{$input.body.x}}). */
export const run: WorkflowRunner<typeof plugin> = ({ workflow }) => ({
  output: workflow?.input ?? null,
})

export { fromN8n } from './n8n.js'
