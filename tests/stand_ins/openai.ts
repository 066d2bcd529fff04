import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for the OpenAI REST API. It checks the bearer key like the real
 * service and answers in its shapes. Grows with the AI provider runners.
 */
export async function startOpenAiStandIn(options: { apiKey: string; models?: string[] }) {
  const requests: {
    method: string
    path: string
    headers: Record<string, unknown>
    body: string
  }[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in')
      requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body })
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(data))
      }
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(401, {
          error: {
            message:
              'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        })
      }
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        const models = options.models ?? ['gpt-4o-mini', 'gpt-4o', 'tts-1']
        return send(200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', owned_by: 'stand-in' })),
        })
      }
      send(404, {
        error: { message: `Unknown path ${url.pathname}`, type: 'invalid_request_error' },
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
