import { sendJson, startStandIn } from '#sdk/testing'

/**
 * A local stand-in for the brain service (a FastAPI app) as Text to Video calls it: POST
 * /generate-video {mode, language, topic, background_music} → {video_path, script, duration};
 * the topic `fail` is refused with 500. Refusals are FastAPI's: 422 with `detail` as a list of
 * field errors for a body that misses a field, 404/500 with `detail` as text.
 */
export async function startBrainStandIn() {
  return startStandIn(({ req, res, url, body, isJson }) => {
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' })
    if (url.pathname !== '/generate-video') return sendJson(res, 404, { detail: 'Not Found' })
    if (!isJson) return sendJson(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'] }] })
    const missing = ['mode', 'language', 'topic']
      .filter((name) => typeof body?.[name] !== 'string' || body[name] === '')
      .map((name) => ({ type: 'missing', loc: ['body', name], msg: 'Field required' }))
    if (missing.length > 0) return sendJson(res, 422, { detail: missing })
    if (body.topic === 'fail') return sendJson(res, 500, { detail: 'Rendering failed' })
    return sendJson(res, 200, {
      video_path: `https://cdn.brain.example/videos/${body.mode}-${body.language}.mp4`,
      script: `A ${body.mode} video about ${body.topic}`,
      duration: 42,
    })
  })
}
