import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'

/**
 * A local stand-in for the chat-node chat API: POST /v1/{botId} with a bearer key and a
 * JSON body {message, chat_session_id?}. It refuses what the real service would refuse
 * (a wrong key, a body that is not JSON, a missing message, an unknown bot or thread),
 * keeps each thread's messages so tests can see a thread continue, and fails on demand:
 * the bot id 'broken' answers 500.
 */

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
  json?: any
}

export async function startChatNodeStandIn(options: { apiKey: string; botIds: string[] }) {
  const requests: RecordedRequest[] = []
  const threads = new Map<string, string[]>()
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
        return send(401, { error: 'Invalid API key' })
      }
      const match = /^\/v1\/([^/]+)$/.exec(url.pathname)
      if (req.method !== 'POST' || !match) return send(404, { error: 'Not found' })
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(415, { error: 'Expected a JSON body' })
      }
      try {
        recorded.json = JSON.parse(body)
      } catch {
        return send(400, { error: 'The body is not JSON' })
      }
      const botId = decodeURIComponent(match[1])
      if (botId === 'broken') return send(500, { error: 'The bot is unavailable' })
      if (!options.botIds.includes(botId)) return send(404, { error: `Unknown bot ${botId}` })
      const { message, chat_session_id: sessionId } = recorded.json ?? {}
      if (typeof message !== 'string' || message === '') {
        return send(400, { error: 'message is required' })
      }
      if (sessionId !== undefined && (typeof sessionId !== 'string' || !threads.has(sessionId))) {
        return send(404, { error: `Unknown chat session ${String(sessionId)}` })
      }
      const thread = sessionId ?? randomUUID()
      const history = threads.get(thread) ?? []
      history.push(message)
      threads.set(thread, history)
      send(200, {
        message: `Answer ${history.length} to "${message}"`,
        chat_session_id: thread,
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    threads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
