import type { Runner } from '#sdk/plugin'
import { readPath, substituteVariables, toVariableValue } from '#sdk/runner'
import { DEFAULT_TIMEOUT, MAX_TIMEOUT } from './index.js'
import type plugin from './index.js'

/**
 * The outgoing HTTP request ("Webhook" in the format). Goes through the guarded client
 * (no internal hosts unless allowed, timeouts). The response is {statusCode, data}; the
 * mappings read paths in it ("data.user.name", or "user.name" under data).
 */

const BODYLESS = new Set(['GET', 'HEAD'])

function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return null
  if (contentType?.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {}
  }
  return text
}

export interface HttpResponseSummary {
  statusCode: number
  data: unknown
}

export const run: Runner<typeof plugin> = async ({ options, variables, http, logger, signal }) => {
  const request = options.webhook ?? {}
  const url = request.url?.trim()
  if (!url) {
    logger.error('HTTP request: the URL is empty')
    return {}
  }
  const method = (request.method ?? 'POST').toUpperCase()
  let target: URL
  try {
    target = new URL(url)
  } catch {
    logger.error(`HTTP request: "${url}" is not a valid URL`)
    return {}
  }
  for (const param of request.queryParams ?? []) {
    if (param.key) target.searchParams.append(param.key, param.value ?? '')
  }
  const headers: Record<string, string> = {}
  for (const header of request.headers ?? []) {
    if (header.key) headers[header.key] = header.value ?? ''
  }
  let body: string | undefined
  if (!BODYLESS.has(method)) {
    if (options.isCustomBody) {
      // The body is a code field (kept raw for the editor): its {{variables}} are read here.
      body = substituteVariables(request.body ?? '', variables.list())
    } else {
      // Without a custom body, every variable is sent by name.
      body = JSON.stringify(
        Object.fromEntries(variables.list().map((v) => [v.name, v.value ?? null]))
      )
    }
    if (body && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain'
    }
  }
  const seconds = Math.min(
    Math.max(Number(options.timeout ?? DEFAULT_TIMEOUT) || DEFAULT_TIMEOUT, 1),
    MAX_TIMEOUT
  )

  let response: HttpResponseSummary
  try {
    const answer = await http.request(target, {
      method,
      headers,
      body,
      timeoutMs: seconds * 1000,
      signal,
    })
    const text = await answer.text()
    response = {
      statusCode: answer.status,
      data: parseBody(text, answer.headers.get('content-type')),
    }
  } catch (error) {
    logger.error(`HTTP request to ${target.host} failed: ${(error as Error).message}`)
    return {}
  }
  if (response.statusCode >= 400) {
    logger.error(`HTTP request returned ${response.statusCode}`, response)
  } else {
    logger.success(`HTTP request returned ${response.statusCode}`, response)
  }
  const variablesToSet = (options.responseVariableMapping ?? [])
    .filter((mapping) => mapping.variableId)
    .map((mapping) => {
      const path = (mapping.bodyPath ?? '').trim()
      const rooted = path === '' || /^(data|statusCode)\b/.test(path)
      const value = rooted ? readPath(response, path || 'data') : readPath(response.data, path)
      return { id: mapping.variableId!, value: toVariableValue(value) }
    })
  return { variablesToSet }
}
