import { recordText, sendJson, startStandIn, type TextStandInRequest } from './stand_in_server.js'
import { readFileSync } from 'node:fs'

/**
 * A local stand-in for an OpenAI-compatible vision model (chat completions with an
 * `image_url` part), plus a tiny web server for the images themselves.
 *
 * POST /v1/chat/completions checks what the Vision Bot must send: the bearer key, a model,
 * a system message naming the JSON keys wanted, a user message with a text part and an
 * `image_url` part holding a data URL of a real image, `response_format: json_object`.
 * It then "looks" at the image (format and size read from its bytes) and answers one JSON
 * object with the keys asked for. Models: 'broken-model' answers 500, 'plain-model' answers
 * plain text. Usage: 1200 prompt and 40 completion tokens, model reported as a dated
 * variant of the one asked for.
 *
 * GET /images/pixel.png serves tests/fixtures/avatar.png; /images/page.html a web page;
 * /images/huge.png announces 25 MB.
 */

export const PIXEL_PNG = readFileSync(new URL('../fixtures/avatar.png', import.meta.url))
export const STAND_IN_USAGE = { prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240 }

export type RecordedRequest = TextStandInRequest

function describePng(bytes: Buffer) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (!signature.every((byte, i) => bytes[i] === byte)) return undefined
  return { format: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

/** Why the request is not what an OpenAI-compatible vision API accepts, if it is not. */
function problemOf(json: any): string | { keys: string[]; instructions: string; image: Buffer } {
  if (typeof json?.model !== 'string' || !json.model) return 'model is required'
  if (json.stream) return 'this stand-in does not stream'
  if (json.response_format?.type !== 'json_object') return 'response_format json_object expected'
  const [system, user, ...rest] = Array.isArray(json.messages) ? json.messages : []
  if (rest.length > 0) return 'two messages expected'
  if (system?.role !== 'system' || typeof system.content !== 'string') return 'system first'
  const keys = /Its keys are exactly these names: (\[.*\])/.exec(system.content)
  if (!keys) return 'the system message does not name the keys'
  if (user?.role !== 'user' || !Array.isArray(user.content)) return 'user content parts expected'
  const textPart = user.content.find((part: any) => part?.type === 'text')
  const imagePart = user.content.find((part: any) => part?.type === 'image_url')
  if (typeof textPart?.text !== 'string' || !textPart.text.trim()) return 'a text part expected'
  const url = imagePart?.image_url?.url
  const data = typeof url === 'string' ? /^data:(image\/[a-z+.-]+);base64,(.+)$/.exec(url) : null
  if (!data) return 'Invalid image: a base64 data URL of an image expected'
  return {
    keys: JSON.parse(keys[1]),
    instructions: textPart.text,
    image: Buffer.from(data[2], 'base64'),
  }
}

export async function startVisionStandIn(options: { apiKey: string; models?: string[] }) {
  const standIn = await startStandIn(
    ({ req, res, url, body, isJson, recorded }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      const error = (status: number, message: string, type = 'invalid_request_error') =>
        send(status, { error: { message, type } })

      // The images a bot links to: public files, no key.
      if (req.method === 'GET' && url.pathname === '/images/pixel.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        return res.end(PIXEL_PNG)
      }
      if (req.method === 'GET' && url.pathname === '/images/huge.png') {
        // Announces 25 MB and sends only the start: a client that trusts the size stops here.
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(25 << 20) })
        res.write(PIXEL_PNG)
        res.on('close', () => res.destroy())
        setTimeout(() => res.destroy(), 5000).unref()
        return
      }
      if (req.method === 'GET' && url.pathname === '/images/page.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        return res.end('<!doctype html><p>Not an image</p>')
      }

      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return error(401, 'Incorrect API key provided.')
      }
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        const models = options.models ?? ['gpt-4o-mini', 'gpt-4o']
        return send(200, { object: 'list', data: models.map((id) => ({ id, object: 'model' })) })
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
        return error(404, `Unknown path ${url.pathname}`)
      }
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return error(415, 'Expected a JSON body')
      }
      if (!isJson) return error(400, 'The body is not JSON')
      recorded.json = body
      const checked = problemOf(recorded.json)
      if (typeof checked === 'string') return error(400, checked)
      const seen = describePng(checked.image)
      if (!seen) return error(400, 'Invalid image: not a PNG the stand-in can read')
      const model: string = recorded.json.model
      if (model === 'broken-model')
        return error(500, 'The vision server is overloaded', 'server_error')
      const content =
        model === 'plain-model'
          ? `A ${seen.width}x${seen.height} ${seen.format} image.`
          : JSON.stringify(
              Object.fromEntries(
                checked.keys.map((key) => {
                  if (/width/i.test(key)) return [key, seen.width]
                  if (/height/i.test(key)) return [key, seen.height]
                  if (/format/i.test(key)) return [key, seen.format]
                  return [
                    key,
                    `${key} of a ${seen.width}x${seen.height} image (${checked.instructions})`,
                  ]
                })
              )
            )
      send(200, {
        id: 'chatcmpl-stand-in',
        object: 'chat.completion',
        model: `${model}-2024-07-18`,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: STAND_IN_USAGE,
      })
    },
    { record: recordText }
  )
  const origin = standIn.baseUrl
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests: standIn.requests,
    close: standIn.close,
  }
}
