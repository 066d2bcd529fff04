import type { RunnerContext } from '#plugins/define_plugin'
import { readPath, toVariableValue } from '#plugins/json_path'
import { substituteVariables } from '#plugins/substitute'
import {
  DEFAULT_TIMEOUT,
  MAX_BODY_CHARS,
  MAX_TIMEOUT,
  type HttpRequestBlockOptions,
  type HttpResponseSummary,
} from '../../../packages/sdk/src/http.js'

/**
 * The app's side of `#sdk/http` (`@flowcraft/sdk/http`): the outgoing HTTP request as its
 * blocks run it (the HTTP request plugin, the automation services' webhook blocks).
 *
 * It goes through the guarded client (no internal hosts unless allowed, timeouts). A bot
 * saves parts of the response {statusCode, data} in variables (the mappings read paths in
 * it: "data.user.name", or "user.name" under data) and its chat goes on whatever happens;
 * a workflow node outputs {statusCode, headers, body}, and a failed call or, unless told
 * otherwise, an answer of 400 or more fails it (retries and error handling apply).
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

/** Runs one request of a block whose options are `httpRequestFields()`. */
export async function runHttpRequest(
  name: string,
  { surface, options, variables, http, logger, signal }: RunnerContext<HttpRequestBlockOptions>
) {
  // A bot logs a problem and goes on; a workflow node fails.
  const fail = (description: string, details?: unknown) => {
    if (surface === 'workflow') throw new Error(description)
    logger.error(description, details)
    return {}
  }
  const request = options.webhook ?? {}
  const url = request.url?.trim()
  if (!url) return fail(`${name}: the URL is empty`)
  const method = (request.method ?? 'POST').toUpperCase()
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return fail(`${name}: "${url}" is not a valid URL`)
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
    } else if (surface === 'bot') {
      // Without a custom body, a bot sends every variable by name.
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

  let answer: Response
  let text: string
  try {
    answer = await http.request(target, {
      method,
      headers,
      body,
      timeoutMs: seconds * 1000,
      signal,
    })
    text = await answer.text()
  } catch (error) {
    return fail(`${name} to ${target.host} failed: ${(error as Error).message}`)
  }

  if (surface === 'workflow') {
    if (text.length > MAX_BODY_CHARS) {
      logger.info(`${name}: the body was cut to ${MAX_BODY_CHARS} characters`)
      text = text.slice(0, MAX_BODY_CHARS)
    }
    const output = {
      statusCode: answer.status,
      headers: Object.fromEntries(answer.headers.entries()),
      body: parseBody(text, answer.headers.get('content-type')),
    }
    if (answer.status >= 400 && !options.ignoreErrorStatus) {
      logger.error(`${name} to ${target.host} returned ${answer.status}`, output)
    } else {
      logger.success(`${name} to ${target.host} returned ${answer.status}`)
    }
    return { output }
  }

  const response: HttpResponseSummary = {
    statusCode: answer.status,
    data: parseBody(text, answer.headers.get('content-type')),
  }
  if (response.statusCode >= 400) {
    logger.error(`${name} returned ${response.statusCode}`, response)
  } else {
    logger.success(`${name} returned ${response.statusCode}`, response)
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
