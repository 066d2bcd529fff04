import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * A local stand-in for the brain service (a FastAPI app): POST /generate-video
 * {mode, language, topic, background_music} → {video_path, script, duration}; POST
 * /ask_query {filepath, query} → {response}. Refusals are FastAPI's: 422 with `detail` as
 * a list of field errors for a body that misses a field, 404/500 with `detail` as text.
 */
export async function startBrainStandIn(options: { documents?: Record<string, string> } = {}) {
  const documents = options.documents ?? {}
  return startStandIn(({ req, res, url, body, isJson }) => {
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' })
    if (!isJson) return sendJson(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'] }] })
    const missing = (fields: string[]) =>
      fields
        .filter((name) => typeof body?.[name] !== 'string' || body[name] === '')
        .map((name) => ({ type: 'missing', loc: ['body', name], msg: 'Field required' }))
    if (url.pathname === '/generate-video') {
      const errors = missing(['mode', 'language', 'topic'])
      if (errors.length > 0) return sendJson(res, 422, { detail: errors })
      if (body.topic === 'fail') return sendJson(res, 500, { detail: 'Rendering failed' })
      return sendJson(res, 200, {
        video_path: `https://cdn.brain.example/videos/${body.mode}-${body.language}.mp4`,
        script: `A ${body.mode} video about ${body.topic}`,
        duration: 42,
      })
    }
    if (url.pathname === '/ask_query') {
      const errors = missing(['filepath', 'query'])
      if (errors.length > 0) return sendJson(res, 422, { detail: errors })
      const text = documents[body.filepath]
      if (text === undefined)
        return sendJson(res, 404, { detail: `File ${body.filepath} not found` })
      return sendJson(res, 200, { response: `From ${body.filepath}: ${text}` })
    }
    return sendJson(res, 404, { detail: 'Not Found' })
  })
}
