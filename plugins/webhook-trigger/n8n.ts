import type { N8nConverter } from '#sdk/n8n'

const MODES: Record<string, string> = {
  onReceived: 'immediately',
  lastNode: 'lastNode',
  responseNode: 'responseNode',
}

/**
 * n8n's Webhook node, and the Chat Trigger of its AI nodes. The path is not kept: our trigger's URL is the workflow's own
 * (/api/v1/workflows/{id}/webhook). n8n answers GET when no method is set.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  if (node.type.endsWith('.chatTrigger')) {
    // A chat message is POSTed as {chatInput, sessionId}: n8n's `$json` is our call's body.
    if (p.public) tools.lost('n8n\'s hosted chat page (post {"chatInput": ...} to the webhook)')
    return { options: { method: 'POST', responseMode: 'lastNode' }, dataPath: 'body' }
  }
  const method = String(p.httpMethod ?? 'GET').toUpperCase()
  if (method !== 'GET' && method !== 'POST') tools.lost(`the method ${method} (POST is used)`)
  if (p.path) tools.lost(`the path "${p.path}" (the URL is the workflow's webhook URL)`)
  if (p.authentication && p.authentication !== 'none') {
    tools.lost(`the ${p.authentication} authentication (set a secret instead)`)
  }
  const mode = String(p.responseMode ?? 'onReceived')
  if (!MODES[mode]) tools.lost(`the response mode "${mode}"`)
  return {
    options: {
      method: method === 'GET' ? 'GET' : 'POST',
      responseMode: MODES[mode] ?? 'immediately',
    },
  }
}
