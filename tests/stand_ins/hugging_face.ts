import { recordText, sendJson, startStandIn, type TextStandInRequest } from './stand_in_server.js'
import { readFileSync } from 'node:fs'

/**
 * A local stand-in for the Hugging Face inference API (POST /models/{org}/{name} with a
 * bearer token and `{ inputs }`) and the hub's whoami. It refuses what the service refuses
 * (wrong token, no JSON, empty inputs, unknown model) and answers like each task does:
 *
 * - `openai-community/gpt2`: text generation, `[{ generated_text }]`
 * - `distilbert/sst2`: classification, `[[{ label, score }, ...]]`
 * - `stand-in/text-to-image`: a PNG (tests/fixtures/avatar.png)
 * - `stand-in/text-to-jpeg`: a JPEG
 * - `stand-in/broken`: 500 `{ error }`
 */

export const STAND_IN_PNG = readFileSync(new URL('../fixtures/avatar.png', import.meta.url))
export const STAND_IN_JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
])

export type RecordedRequest = TextStandInRequest

export async function startHuggingFaceStandIn(options: { apiKey: string; user?: string }) {
  const standIn = await startStandIn(
    ({ req, res, url, body, isJson, recorded }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(401, { error: 'Invalid credentials in Authorization header' })
      }
      if (req.method === 'GET' && url.pathname === '/api/whoami-v2') {
        return send(200, { type: 'user', name: options.user ?? 'stand-in-user' })
      }
      const model = /^\/models\/(.+)$/.exec(url.pathname)
      if (req.method !== 'POST' || !model) return send(404, { error: 'Not found' })
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(415, { error: 'Expected a JSON body' })
      }
      if (!isJson) return send(400, { error: 'The body is not JSON' })
      recorded.json = body
      const inputs = recorded.json?.inputs
      if (typeof inputs !== 'string' || inputs.trim() === '') {
        return send(400, { error: 'inputs must be a non-empty string' })
      }
      const sendBytes = (type: string, bytes: Buffer) => {
        res.writeHead(200, { 'content-type': type })
        res.end(bytes)
      }
      switch (decodeURIComponent(model[1])) {
        case 'openai-community/gpt2':
          return send(200, [{ generated_text: `${inputs} and then the story went on.` }])
        case 'distilbert/sst2':
          return send(200, [
            [
              { label: 'POSITIVE', score: 0.98 },
              { label: 'NEGATIVE', score: 0.02 },
            ],
          ])
        case 'stand-in/text-to-image':
          return sendBytes('image/png', STAND_IN_PNG)
        case 'stand-in/text-to-jpeg':
          return sendBytes('image/jpeg', STAND_IN_JPEG)
        case 'stand-in/broken':
          return send(500, { error: 'The model crashed while loading' })
        default:
          return send(404, { error: `Model ${model[1]} does not exist` })
      }
    },
    { record: recordText }
  )
  return {
    baseUrl: standIn.baseUrl,
    requests: standIn.requests,
    close: standIn.close,
  }
}
