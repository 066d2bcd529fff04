import { sendJson, startStandIn } from '#sdk/testing'

/**
 * A local stand-in for the brain service (a FastAPI app) as Zemantic AI calls it: POST
 * /ask_query {filepath, query} → {response}, answered from the `documents` given (path →
 * text). Refusals are FastAPI's: 422 with `detail` as a list of field errors for a body that
 * misses a field, 404 with `detail` as text for a file it does not have.
 */
export async function startBrainStandIn(options: { documents?: Record<string, string> } = {}) {
  const documents = options.documents ?? {}
  return startStandIn(({ req, res, url, body, isJson }) => {
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' })
    if (url.pathname !== '/ask_query') return sendJson(res, 404, { detail: 'Not Found' })
    if (!isJson) return sendJson(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'] }] })
    const missing = ['filepath', 'query']
      .filter((name) => typeof body?.[name] !== 'string' || body[name] === '')
      .map((name) => ({ type: 'missing', loc: ['body', name], msg: 'Field required' }))
    if (missing.length > 0) return sendJson(res, 422, { detail: missing })
    const text = documents[body.filepath]
    if (text === undefined) return sendJson(res, 404, { detail: `File ${body.filepath} not found` })
    return sendJson(res, 200, { response: `From ${body.filepath}: ${text}` })
  })
}
