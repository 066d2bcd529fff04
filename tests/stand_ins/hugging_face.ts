import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
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

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
  json?: any
}

export async function startHuggingFaceStandIn(options: { apiKey: string; user?: string }) {
  const requests: RecordedRequest[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in')
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: req.headers,
        body,
      }
      requests.push(recorded)
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(data))
      }
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
      try {
        recorded.json = JSON.parse(body)
      } catch {
        return send(400, { error: 'The body is not JSON' })
      }
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
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
