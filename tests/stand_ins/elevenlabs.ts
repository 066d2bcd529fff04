import { recordText, sendJson, startStandIn, type TextStandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for the ElevenLabs REST API: voices, models and text to speech, all
 * behind the `xi-api-key` header. Text to speech refuses what the real service refuses (no
 * JSON body, an empty text, an unknown voice, a model that cannot speak) and answers an
 * MP3 whose bytes tell which text, voice and model produced it (`speechBytes`). The voice
 * id 'broken' answers 500.
 */

export const STAND_IN_VOICES = [
  { voice_id: 'voice-rachel', name: 'Rachel' },
  { voice_id: 'voice-adam', name: 'Adam' },
]

export const STAND_IN_MODELS = [
  { model_id: 'eleven_multilingual_v2', name: 'Multilingual v2', can_do_text_to_speech: true },
  { model_id: 'eleven_turbo_v2_5', name: 'Turbo v2.5', can_do_text_to_speech: true },
  {
    model_id: 'eleven_english_sts_v2',
    name: 'English speech to speech',
    can_do_text_to_speech: false,
  },
]

/** The MP3 the stand-in answers: an ID3 tag, an MPEG frame header, then a readable trace. */
export function speechBytes(text: string, voiceId: string, modelId = 'default') {
  return Buffer.concat([
    Buffer.from('ID3'),
    Buffer.from([0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
    Buffer.from([0xff, 0xfb, 0x90, 0x64]),
    Buffer.from(`${voiceId}|${modelId}|${text}`),
  ])
}

export type RecordedRequest = TextStandInRequest

export async function startElevenLabsStandIn(options: { apiKey: string }) {
  const standIn = await startStandIn(
    ({ req, res, url, body, isJson, recorded }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      const fail = (status: number, code: string, message: string) =>
        send(status, { detail: { status: code, message } })
      if (req.headers['xi-api-key'] !== options.apiKey) {
        return fail(401, 'invalid_api_key', 'Invalid API key')
      }
      if (req.method === 'GET' && url.pathname === '/v1/voices') {
        return send(200, { voices: STAND_IN_VOICES.map((v) => ({ ...v, category: 'premade' })) })
      }
      if (req.method === 'GET' && url.pathname === '/v1/models') return send(200, STAND_IN_MODELS)
      const speech = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname)
      if (req.method === 'POST' && speech) {
        const voiceId = decodeURIComponent(speech[1])
        if (voiceId === 'broken') return fail(500, 'internal_error', 'The voice server crashed')
        if (!STAND_IN_VOICES.some((v) => v.voice_id === voiceId)) {
          return fail(404, 'voice_not_found', `A voice with the voice_id ${voiceId} was not found.`)
        }
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          return fail(415, 'invalid_content_type', 'Expected a JSON body')
        }
        if (!isJson) return fail(400, 'invalid_json', 'The body is not JSON')
        recorded.json = body
        const { text, model_id: modelId } = recorded.json ?? {}
        if (typeof text !== 'string' || text.trim() === '') {
          return fail(422, 'invalid_text', 'text is required')
        }
        if (modelId !== undefined) {
          const model = STAND_IN_MODELS.find((m) => m.model_id === modelId)
          if (!model?.can_do_text_to_speech) {
            return fail(400, 'model_can_not_do_text_to_speech', `${modelId} cannot do TTS`)
          }
        }
        res.writeHead(200, { 'content-type': 'audio/mpeg' })
        return res.end(speechBytes(text, voiceId, modelId))
      }
      fail(404, 'not_found', `Unknown path ${url.pathname}`)
    },
    { record: recordText }
  )
  return {
    baseUrl: standIn.baseUrl,
    requests: standIn.requests,
    close: standIn.close,
  }
}
