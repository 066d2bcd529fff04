import env from '#start/env'
import { BRAIN_TIMEOUT_MS, BrainError } from '../../../packages/sdk/src/brain.js'

/**
 * The app's side of `#sdk/brain`: the brain service, the operator's own backend behind the Text to
 * Video and Zemantic AI blocks (POST /generate-video and
 * POST /ask_query). Its address is configuration (BRAIN_SERVICE_URL), not a builder's
 * input, so it is called directly rather than through the guarded client, which would
 * refuse the private address such a service usually has.
 */

let override: string | undefined

export function brainServiceUrl(): string {
  return (override ?? env.get('BRAIN_SERVICE_URL') ?? '').trim().replace(/\/+$/, '')
}

/** Tests point the blocks at a stand-in; returns the undo. */
export function overrideBrainServiceUrl(url: string | undefined) {
  const previous = override
  override = url
  return () => {
    override = previous
  }
}

/**
 * POST {BRAIN_SERVICE_URL}{path} with a JSON body; the parsed JSON answer. A refusal throws
 * with the service's `detail` (its error field) when it gives one.
 */
export async function callBrain<T = Record<string, unknown>>(
  path: string,
  body: Record<string, unknown>,
  { signal, timeoutMs = BRAIN_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {}
): Promise<T> {
  const base = brainServiceUrl()
  if (!base) throw new BrainError('The brain service is not configured (BRAIN_SERVICE_URL)')
  const timeout = AbortSignal.timeout(timeoutMs)
  let response: Response
  try {
    response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer after ${timeoutMs / 1000} s`
      : (error as Error).message
    throw new BrainError(`The brain service could not be reached: ${reason}`)
  }
  const text = await response.text()
  let answer: unknown = text
  try {
    answer = text ? JSON.parse(text) : null
  } catch {}
  if (!response.ok) {
    const detail = (answer as { detail?: unknown } | null)?.detail
    const reason =
      typeof detail === 'string'
        ? detail
        : detail
          ? JSON.stringify(detail)
          : `status ${response.status}`
    throw new BrainError(`The brain service refused ${path}: ${reason}`, response.status, answer)
  }
  if (!answer || typeof answer !== 'object') {
    throw new BrainError(`The brain service answered ${path} with no JSON object`, response.status)
  }
  return answer as T
}
