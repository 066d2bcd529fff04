import { randomUUID } from 'node:crypto'
import { recordText, sendJson, startStandIn } from './stand_in_server.js'

/**
 * Local stand-ins for the "catch hook" URLs of the automation services, answering as each
 * one does when a webhook trigger receives a call:
 * - Zapier: POST /hooks/catch/{account}/{hook}/ → 200 {attempt, id, request_id, status: "success"}
 * - Make: POST /{token} → 200 text "Accepted" (a scenario's custom webhook)
 * - Pabbly Connect: POST /workflow/sendwebhookdata/{id} → 200 {status: "success", message}
 * An unknown hook answers 404 as they do (Zapier and Pabbly with JSON, Make with text), and
 * a body that is not JSON is still taken (they capture whatever arrives).
 */
export async function startAutomationHooks() {
  return startStandIn(
    ({ req, res, url }) => {
      if (req.method !== 'POST' && req.method !== 'GET') return sendJson(res, 405, {})
      const zapier = url.pathname.match(/^\/hooks\/catch\/(\d+)\/(\w+)\/?$/)
      if (zapier) {
        return sendJson(res, 200, {
          attempt: randomUUID(),
          id: randomUUID(),
          request_id: randomUUID(),
          status: 'success',
        })
      }
      if (/^\/[a-z0-9]{32}$/.test(url.pathname)) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        return res.end('Accepted')
      }
      if (/^\/workflow\/sendwebhookdata\/[\w=]+$/.test(url.pathname)) {
        return sendJson(res, 200, { status: 'success', message: 'Request accepted' })
      }
      if (url.pathname.startsWith('/hooks/') || url.pathname.startsWith('/workflow/')) {
        return sendJson(res, 404, { status: 'error', message: 'Hook not found' })
      }
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('There is no scenario listening for this webhook.')
    },
    { record: recordText }
  )
}

export const MAKE_TOKEN = 'k2mf8y4j1xq0s9w7c3v5b6n8m1l2p4o7'
