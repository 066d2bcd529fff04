import { pairsOf, type N8nConverter } from '#sdk/n8n'

/**
 * n8n's Respond to Webhook. Answering with the first (or every) incoming item is our empty
 * body (the node input); JSON and text bodies are kept with their expressions translated.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const options = p.options ?? {}
  const respondWith = String(p.respondWith ?? 'firstIncomingItem')
  const headers = pairsOf(options.responseHeaders, tools.text, 'entries')
  let body = ''
  let statusCode = Number(options.responseCode ?? 200)
  switch (respondWith) {
    case 'json':
      body = tools.text(p.responseBody ?? '')
      break
    case 'text':
      body = tools.text(p.responseBody ?? '')
      if (!headers.some((header) => header.key.toLowerCase() === 'content-type')) {
        headers.push({ key: 'Content-Type', value: 'text/plain' })
      }
      break
    case 'noData':
      body = '""'
      break
    case 'redirect':
      statusCode = Number(options.responseCode ?? 307)
      headers.push({ key: 'Location', value: tools.text(p.redirectURL ?? '') })
      body = '""'
      break
    case 'firstIncomingItem':
    case 'allIncomingItems':
      break
    default:
      tools.lost(`the ${respondWith} answer (the node input is sent)`)
  }
  return {
    options: { statusCode: Number.isInteger(statusCode) ? statusCode : 200, headers, body },
    passesInput: true,
  }
}
