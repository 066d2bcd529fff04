import { sendJson, startStandIn } from '#sdk/testing'

/**
 * A local stand-in for the Telegram Bot API as a webhook bot uses it: getMe, setWebhook,
 * getWebhookInfo, deleteWebhook, sendMessage, sendPhoto, sendVideo, sendAudio, sendDocument
 * (inline keyboards and HTML checked) and answerCallbackQuery under /bot{token}/, answering {ok, result} or
 * {ok: false, error_code, description} like the real service. setWebhook checks what
 * Telegram checks (a URL, a secret_token of 1-256 characters A-Z a-z 0-9 _ -, allowed_updates
 * an array of strings). `deliver` plays Telegram sending an update to the registered webhook,
 * with the secret token in X-Telegram-Bot-Api-Secret-Token.
 */

export interface TelegramCall {
  method: string
  token: string
  headers: Record<string, string | string[] | undefined>
  body: any
}

export interface Webhook {
  url: string
  secret_token?: string
  allowed_updates?: string[]
}

const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/
const PARSE_MODES = ['Markdown', 'MarkdownV2', 'HTML']
/**
 * What Telegram's HTML parse mode refuses: tags outside its list, unclosed or crossed tags,
 * a bare "<" or "&".
 */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'span',
  'tg-spoiler',
  'blockquote',
])
function htmlProblem(text: string): string | null {
  const open: string[] = []
  const pattern = /<(\/?)([a-z-]+)(?:\s[^<>]*)?>|<|&(?!(?:amp|lt|gt|quot|#\d+);)/gi
  let match: RegExpExecArray | null
  while ((match = pattern.exec(text))) {
    if (!match[2]) return `unsupported start tag or entity at byte offset ${match.index}`
    const tag = match[2].toLowerCase()
    if (!HTML_TAGS.has(tag)) return `unsupported start tag "${tag}"`
    if (match[1]) {
      if (open.pop() !== tag) return `unexpected end tag "${tag}"`
    } else open.push(tag)
  }
  return open.length ? `unclosed start tag "${open.at(-1)}"` : null
}

/** A chat the bot has never seen: sends to it are refused as Telegram refuses them. */
export const CHAT_NOT_FOUND = 404404

export async function startTelegramStandIn(options: { token: string }) {
  // A call is recorded only once it is a well-formed method call, so the list is kept here.
  const calls: TelegramCall[] = []
  let webhook: Webhook | null = null
  // What the bot sent (sendMessage, sendPhoto, sendDocument), in order.
  const sent: { method: string; body: any }[] = []
  let lastMessageId = 100
  // callback_query ids answered with answerCallbackQuery.
  const answeredQueries: string[] = []
  // Files contacts sent, by file_id; getFile gives their path, then /file/bot{token}/{path}.
  const files = new Map<string, { path: string; bytes: Buffer; mimeType: string }>()
  // getFile calls and downloads, in order.
  const fetched: string[] = []

  const standIn = await startStandIn(
    ({ req, res, url, text, body: json, isJson }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      const fail = (status: number, description: string) =>
        send(status, { ok: false, error_code: status, description })
      const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname)
      if (download && req.method === 'GET') {
        const file = [...files.values()].find((candidate) => candidate.path === download[2])
        if (download[1] !== options.token || !file) return fail(404, 'Not Found')
        fetched.push(`download:${file.path}`)
        res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.length })
        return res.end(file.bytes)
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname)
      if (!match) return fail(404, 'Not Found')
      const [, token, method] = match
      let body: any = {}
      if (text) {
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          return fail(400, 'Bad Request: unsupported content type')
        }
        if (!isJson) return fail(400, 'Bad Request: invalid JSON')
        body = json
      }
      calls.push({ method, token, headers: req.headers, body })
      if (req.method !== 'POST' && req.method !== 'GET') return fail(405, 'Method Not Allowed')
      if (token !== options.token) return fail(401, 'Unauthorized')

      switch (method) {
        case 'getMe':
          return send(200, {
            ok: true,
            result: { id: 4242, is_bot: true, first_name: 'Orders', username: 'orders_bot' },
          })
        case 'setWebhook': {
          if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) {
            return fail(400, 'Bad Request: bad webhook: an HTTPS URL must be provided')
          }
          if (body.secret_token !== undefined && !SECRET_TOKEN.test(String(body.secret_token))) {
            return fail(400, 'Bad Request: secret token contains unallowed characters')
          }
          if (
            body.allowed_updates !== undefined &&
            (!Array.isArray(body.allowed_updates) ||
              body.allowed_updates.some((type: unknown) => typeof type !== 'string'))
          ) {
            return fail(400, "Bad Request: can't parse allowed updates")
          }
          webhook = {
            url: body.url,
            secret_token: body.secret_token,
            allowed_updates: body.allowed_updates,
          }
          return send(200, { ok: true, result: true, description: 'Webhook was set' })
        }
        case 'getWebhookInfo':
          return send(200, {
            ok: true,
            result: { url: webhook?.url ?? '', pending_update_count: 0 },
          })
        case 'deleteWebhook': {
          const had = webhook !== null
          webhook = null
          return send(200, {
            ok: true,
            result: true,
            description: had ? 'Webhook was deleted' : 'Webhook is already deleted',
          })
        }
        case 'getFile': {
          const file = files.get(String(body.file_id ?? ''))
          if (!file) return fail(400, 'Bad Request: invalid file_id')
          // The cloud Bot API serves files of up to 20 MB to bots.
          if (file.bytes.length > 20 * 1024 * 1024) return fail(400, 'Bad Request: file is too big')
          fetched.push(`getFile:${body.file_id}`)
          return send(200, {
            ok: true,
            result: {
              file_id: body.file_id,
              file_unique_id: `u-${body.file_id}`,
              file_size: file.bytes.length,
              file_path: file.path,
            },
          })
        }
        case 'answerCallbackQuery': {
          if (typeof body.callback_query_id !== 'string' || !body.callback_query_id) {
            return fail(
              400,
              'Bad Request: query is too old and response timeout expired or query ID is invalid'
            )
          }
          answeredQueries.push(body.callback_query_id)
          return send(200, { ok: true, result: true })
        }
        case 'sendMessage':
        case 'sendPhoto':
        case 'sendVideo':
        case 'sendAudio':
        case 'sendDocument': {
          const field = {
            sendMessage: 'text',
            sendPhoto: 'photo',
            sendVideo: 'video',
            sendAudio: 'audio',
            sendDocument: 'document',
          }[method]!
          if (body.chat_id === undefined || body.chat_id === '') {
            return fail(400, 'Bad Request: chat_id is empty')
          }
          if (body.chat_id === CHAT_NOT_FOUND) return fail(400, 'Bad Request: chat not found')
          if (typeof body[field] !== 'string' || body[field] === '') {
            return fail(400, `Bad Request: ${field === 'text' ? 'message text' : field} is empty`)
          }
          if (body.parse_mode !== undefined && !PARSE_MODES.includes(body.parse_mode)) {
            return fail(400, `Bad Request: unsupported parse_mode`)
          }
          if (body.parse_mode === 'HTML' && typeof body[field] === 'string') {
            const problem = htmlProblem(body[field])
            if (problem) return fail(400, `Bad Request: can't parse entities: ${problem}`)
          }
          if (body.reply_markup !== undefined) {
            const keyboard = body.reply_markup?.inline_keyboard
            const valid =
              Array.isArray(keyboard) &&
              keyboard.every(
                (row: unknown) =>
                  Array.isArray(row) &&
                  row.every(
                    (button: any) =>
                      typeof button?.text === 'string' &&
                      button.text !== '' &&
                      typeof button.callback_data === 'string' &&
                      Buffer.byteLength(button.callback_data) >= 1 &&
                      Buffer.byteLength(button.callback_data) <= 64
                  )
              )
            if (!valid) return fail(400, 'Bad Request: BUTTON_DATA_INVALID')
          }
          const message: Record<string, unknown> = {
            message_id: ++lastMessageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: body.chat_id, type: 'private' },
          }
          if (field === 'text') message.text = body.text
          else if (field === 'photo') message.photo = [{ file_id: `photo-${lastMessageId}` }]
          else
            message[field] = { file_id: `${field === 'document' ? 'doc' : field}-${lastMessageId}` }
          if (body.caption) message.caption = body.caption
          sent.push({ method, body })
          return send(200, { ok: true, result: message })
        }
        default:
          return fail(404, 'Not Found: method not found')
      }
    },
    { record: () => undefined }
  )

  return {
    baseUrl: standIn.baseUrl,
    calls,
    sent,
    answeredQueries,
    fetched,
    /** Makes a file a contact can send (its file_id in an update). */
    addFile(fileId: string, file: { path: string; bytes: Buffer; mimeType: string }) {
      files.set(fileId, file)
    },
    webhook: () => webhook,
    /**
     * Sends an update to the registered webhook as Telegram does (the registered secret
     * token unless `secretToken` overrides it; null sends none).
     */
    async deliver(update: Record<string, unknown>, override: { secretToken?: string | null } = {}) {
      if (!webhook) throw new Error('No webhook is set')
      const secret =
        override.secretToken === undefined ? webhook.secret_token : override.secretToken
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        body: JSON.stringify(update),
      })
      const text = await response.text()
      let json: any = null
      try {
        json = JSON.parse(text)
      } catch {}
      return { status: response.status, body: json ?? text }
    },
    close: standIn.close,
  }
}
