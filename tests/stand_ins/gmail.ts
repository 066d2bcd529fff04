import { sendJson, startStandIn, type StandInExchange } from './stand_in_server.js'

/**
 * A local stand-in for the Gmail API and Google's OAuth token endpoint, as a polling
 * trigger uses them:
 * - POST /token (form): grant_type=refresh_token with the client id, secret and refresh
 *   token it was given answers a new access token; anything else 400 invalid_grant/client.
 * - GET /gmail/v1/users/me/profile, /messages (q, maxResults, pageToken) and /messages/{id}
 *   (format=metadata with metadataHeaders), behind a Bearer access token it issued (or the
 *   `validAccessToken` it starts with); other tokens get 401 UNAUTHENTICATED.
 * Messages are listed newest first. The search understands what the tests use: in:, is:,
 * label:, from:, after:{epoch seconds}; other words match the subject or snippet.
 */

export interface GmailRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface StandInMessage {
  id: string
  threadId: string
  labelIds: string[]
  snippet: string
  internalDate: string
  historyId: string
  headers: { name: string; value: string }[]
}

export async function startGmailStandIn(options: {
  clientId: string
  clientSecret: string
  refreshToken: string
  email: string
  validAccessToken?: string
}) {
  const messages: StandInMessage[] = []
  const issued = new Set<string>(options.validAccessToken ? [options.validAccessToken] : [])
  let counter = 0
  let history = 1000

  function add(message: {
    from: string
    to: string
    subject: string
    snippet?: string
    labels?: string[]
    receivedAt?: number
  }) {
    counter++
    history++
    const id = (0x18c0000000 + counter).toString(16)
    const receivedAt = message.receivedAt ?? Date.now()
    const stored: StandInMessage = {
      id,
      threadId: `t${id}`,
      labelIds: message.labels ?? ['INBOX', 'UNREAD'],
      snippet: message.snippet ?? '',
      internalDate: String(receivedAt),
      historyId: String(history),
      headers: [
        { name: 'From', value: message.from },
        { name: 'To', value: message.to },
        { name: 'Subject', value: message.subject },
        { name: 'Date', value: new Date(receivedAt).toUTCString() },
        { name: 'Message-ID', value: `<${id}@stand-in>` },
      ],
    }
    messages.push(stored)
    return stored
  }

  function matches(message: StandInMessage, q: string) {
    const header = (name: string) =>
      message.headers.find((h) => h.name === name)?.value.toLowerCase() ?? ''
    return q
      .split(/\s+/)
      .filter(Boolean)
      .every((term) => {
        const [key, ...rest] = term.split(':')
        const value = rest.join(':').toLowerCase()
        if (!rest.length) {
          return (header('Subject') + ' ' + message.snippet.toLowerCase()).includes(
            term.toLowerCase()
          )
        }
        switch (key) {
          case 'in':
          case 'is':
          case 'label':
            return message.labelIds.some((label) => label.toLowerCase() === value)
          case 'from':
            return header('From').includes(value)
          case 'after':
            return Number(message.internalDate) / 1000 > Number(value)
          default:
            return false
        }
      })
  }

  const standIn = await startStandIn(
    ({ req, res, url, text: body }) => {
      const send = (status: number, data: unknown) =>
        sendJson(res, status, data, 'application/json; charset=utf-8')

      if (url.pathname === '/token') {
        if (req.method !== 'POST') return send(405, { error: 'invalid_request' })
        if (
          !String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
        ) {
          return send(400, { error: 'invalid_request', error_description: 'Bad content type' })
        }
        const form = new URLSearchParams(body)
        if (
          form.get('client_id') !== options.clientId ||
          form.get('client_secret') !== options.clientSecret
        ) {
          return send(401, { error: 'invalid_client', error_description: 'Unauthorized' })
        }
        if (
          form.get('grant_type') !== 'refresh_token' ||
          form.get('refresh_token') !== options.refreshToken
        ) {
          return send(400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          })
        }
        const token = `ya29.fresh-${issued.size + 1}`
        issued.add(token)
        return send(200, {
          access_token: token,
          expires_in: 3599,
          scope: 'https://www.googleapis.com/auth/gmail.readonly',
          token_type: 'Bearer',
        })
      }

      const authorization = String(req.headers.authorization ?? '')
      if (!authorization.startsWith('Bearer ') || !issued.has(authorization.slice(7))) {
        return send(401, {
          error: {
            code: 401,
            message:
              'Request had invalid authentication credentials. Expected OAuth 2 access token.',
            status: 'UNAUTHENTICATED',
          },
        })
      }
      const prefix = '/gmail/v1/users/me/'
      if (req.method !== 'GET' || !url.pathname.startsWith(prefix)) {
        return send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } })
      }
      const rest = url.pathname.slice(prefix.length)
      if (rest === 'profile') {
        return send(200, {
          emailAddress: options.email,
          messagesTotal: messages.length,
          threadsTotal: messages.length,
          historyId: String(history),
        })
      }
      if (rest === 'messages') {
        const q = url.searchParams.get('q') ?? ''
        const max = Math.min(Number(url.searchParams.get('maxResults') ?? 100) || 100, 500)
        const offset = Number(url.searchParams.get('pageToken') ?? 0) || 0
        const found = messages
          .filter((message) => matches(message, q))
          .sort((a, b) => Number(b.internalDate) - Number(a.internalDate))
        const page = found.slice(offset, offset + max)
        return send(200, {
          ...(page.length ? { messages: page.map(({ id, threadId }) => ({ id, threadId })) } : {}),
          ...(offset + max < found.length ? { nextPageToken: String(offset + max) } : {}),
          resultSizeEstimate: found.length,
        })
      }
      const one = /^messages\/([^/]+)$/.exec(rest)
      if (one) {
        const message = messages.find((m) => m.id === decodeURIComponent(one[1]))
        if (!message) {
          return send(404, {
            error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
          })
        }
        const format = url.searchParams.get('format') ?? 'full'
        const wanted = url.searchParams.getAll('metadataHeaders').map((h) => h.toLowerCase())
        const headers =
          format === 'metadata' && wanted.length
            ? message.headers.filter((h) => wanted.includes(h.name.toLowerCase()))
            : message.headers
        return send(200, {
          id: message.id,
          threadId: message.threadId,
          labelIds: message.labelIds,
          snippet: message.snippet,
          historyId: message.historyId,
          internalDate: message.internalDate,
          sizeEstimate: 2048,
          payload: {
            mimeType: 'text/plain',
            headers,
            ...(format === 'metadata' ? {} : { body: { size: 11, data: 'SGVsbG8gd29ybGQ' } }),
          },
        })
      }
      send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } })
    },
    {
      record: ({ req, url, text }: StandInExchange): GmailRequest => ({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text,
      }),
    }
  )

  return {
    baseUrl: standIn.baseUrl,
    tokenUrl: `${standIn.baseUrl}/token`,
    requests: standIn.requests,
    messages,
    add,
    close: standIn.close,
  }
}
