import { substituteVariables, type WorkflowRunner } from '#sdk/runner'
import { keyValueToRecord } from '#sdk/plugin'
import { DEFAULT_TIMEOUT, MAX_TIMEOUT } from './index.js'
import type plugin from './index.js'

const BODYLESS = new Set(['GET', 'HEAD'])
/** Beyond this the body is cut: run records are not a file store. */
export const MAX_BODY_CHARS = 1_000_000

function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return null
  if (contentType?.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {}
  }
  return text
}

/**
 * The request goes through the guarded client (no internal hosts unless the operator
 * allows them, timeouts). The output is {statusCode, headers, body}, the body parsed when
 * it is JSON.
 */
export const run: WorkflowRunner<typeof plugin> = async ({
  options,
  variables,
  http,
  logger,
  signal,
}) => {
  const url = options.url?.trim()
  if (!url) throw new Error('HTTP request: the URL is empty')
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new Error(`HTTP request: "${url}" is not a valid URL`)
  }
  for (const [key, value] of Object.entries(keyValueToRecord(options.query))) {
    target.searchParams.append(key, value)
  }
  const method = (options.method ?? 'POST').toUpperCase()
  const headers = keyValueToRecord(options.headers)
  let body: string | undefined
  if (!BODYLESS.has(method) && options.body?.trim()) {
    // The body is a code field (kept raw for the editor): its references are read here.
    body = substituteVariables(options.body, variables.list())
    if (!Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain'
    }
  }
  const seconds = Math.min(
    Math.max(Number(options.timeout ?? DEFAULT_TIMEOUT) || DEFAULT_TIMEOUT, 1),
    MAX_TIMEOUT
  )

  let response: Response
  try {
    response = await http.request(target, {
      method,
      headers,
      body,
      timeoutMs: seconds * 1000,
      signal,
    })
  } catch (error) {
    throw new Error(`HTTP request to ${target.host} failed: ${(error as Error).message}`)
  }
  let text = await response.text()
  if (text.length > MAX_BODY_CHARS) {
    logger.info(`HTTP request: the body was cut to ${MAX_BODY_CHARS} characters`)
    text = text.slice(0, MAX_BODY_CHARS)
  }
  const output = {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    body: parseBody(text, response.headers.get('content-type')),
  }
  if (response.status >= 400 && !options.ignoreErrorStatus) {
    logger.error(`HTTP request to ${target.host} returned ${response.status}`, output)
  } else {
    logger.success(`HTTP request to ${target.host} returned ${response.status}`)
  }
  return { output }
}
