import { recordText, sendJson, startStandIn, type TextStandInRequest } from './stand_in_server.js'
import { randomUUID } from 'node:crypto'

/**
 * A local stand-in for the chat-node chat API: POST /v1/{botId} with a bearer key and a
 * JSON body {message, chat_session_id?}. It refuses what the real service would refuse
 * (a wrong key, a body that is not JSON, a missing message, an unknown bot or thread),
 * keeps each thread's messages so tests can see a thread continue, and fails on demand:
 * the bot id 'broken' answers 500.
 */

export type RecordedRequest = TextStandInRequest

export async function startChatNodeStandIn(options: { apiKey: string; botIds: string[] }) {
  const threads = new Map<string, string[]>()
  const standIn = await startStandIn(
    ({ req, res, url, body, isJson, recorded }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send(401, { error: 'Invalid API key' })
      }
      const match = /^\/v1\/([^/]+)$/.exec(url.pathname)
      if (req.method !== 'POST' || !match) return send(404, { error: 'Not found' })
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(415, { error: 'Expected a JSON body' })
      }
      if (!isJson) return send(400, { error: 'The body is not JSON' })
      recorded.json = body
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
    },
    { record: recordText }
  )
  return {
    baseUrl: standIn.baseUrl,
    requests: standIn.requests,
    threads,
    close: standIn.close,
  }
}
