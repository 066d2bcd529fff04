import { pairsOf, type N8nConverter } from '#sdk/n8n'
import { HTTP_METHODS, MAX_TIMEOUT } from '#sdk/http_fields'

/** A JSON body from n8n's name/value body parameters; values stay texts with references. */
function jsonOf(pairs: { key: string; value: string }[]) {
  return `{\n${pairs.map(({ key, value }) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(',\n')}\n}`
}

/**
 * n8n's HTTP Request node (version 1 and versions 3 and later). n8n outputs the answer's
 * body, we output {statusCode, headers, body}: `dataPath` tells the importer, so that
 * `$json.id` after it reads `body.id` here (unless n8n was told to give the full response).
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const legacy = (node.typeVersion ?? 1) < 2
  const method = String((legacy ? p.requestMethod : p.method) ?? 'GET').toUpperCase()
  if (!(HTTP_METHODS as readonly string[]).includes(method)) tools.lost(`the method ${method}`)
  let queryParams: { key: string; value: string }[]
  let headers: { key: string; value: string }[]
  let body = ''
  if (legacy) {
    queryParams = pairsOf(p.queryParametersUi, tools.text, 'parameter')
    headers = pairsOf(p.headerParametersUi, tools.text, 'parameter')
    if (p.jsonParameters) body = tools.text(p.bodyParametersJson ?? '')
    else {
      const pairs = pairsOf(p.bodyParametersUi, tools.text, 'parameter')
      if (pairs.length > 0) body = jsonOf(pairs)
    }
  } else {
    queryParams = p.sendQuery ? pairsOf(p.queryParameters, tools.text) : []
    headers = p.sendHeaders ? pairsOf(p.headerParameters, tools.text) : []
    if (p.sendBody) {
      const contentType = String(p.contentType ?? 'json')
      if (contentType === 'json' && p.specifyBody === 'json') body = tools.text(p.jsonBody ?? '')
      else if (contentType === 'raw') {
        body = tools.text(p.body ?? '')
        if (p.rawContentType)
          headers.push({ key: 'Content-Type', value: tools.text(p.rawContentType) })
      } else {
        if (contentType !== 'json') tools.lost(`the ${contentType} body (sent as JSON)`)
        body = jsonOf(pairsOf(p.bodyParameters, tools.text))
      }
    }
  }
  if (p.authentication && p.authentication !== 'none') {
    tools.lost(
      `the ${p.nodeCredentialType ?? p.genericAuthType ?? p.authentication} authentication (add its header by hand)`
    )
  }
  const options = p.options ?? {}
  const full = options.response?.response?.fullResponse === true || options.fullResponse === true
  const timeoutMs = Number(options.timeout)
  return {
    options: {
      webhook: {
        method: (HTTP_METHODS as readonly string[]).includes(method) ? method : 'GET',
        url: tools.text(p.url ?? ''),
        queryParams,
        headers,
        ...(body ? { body } : {}),
      },
      isCustomBody: body !== '',
      ...(Number.isFinite(timeoutMs) && timeoutMs > 0
        ? { timeout: Math.min(MAX_TIMEOUT, Math.max(1, Math.ceil(timeoutMs / 1000))) }
        : {}),
      ...(options.response?.response?.neverError === true || options.neverError === true
        ? { ignoreErrorStatus: true }
        : {}),
    },
    dataPath: full ? '' : 'body',
  }
}
