import { createHmac } from 'node:crypto'
import { sendJson, startStandIn } from './stand_in_server.js'

/**
 * A local stand-in for the WhatsApp Cloud API as a bot uses it: POST
 * /{version}/{phoneNumberId}/messages with a Bearer token, checked as Meta checks it (the
 * messaging_product, a recipient, a known type, text bodies, media links, interactive reply
 * buttons: 1 to 3, titles of 1 to 20 characters, unique ids), answered with a wamid or
 * Meta's error object. It also plays Meta calling the bot's webhook: the GET subscription
 * handshake (`verify`) and signed message notifications (`deliver`).
 */

export interface WhatsAppSent {
  phoneNumberId: string
  version: string
  authorization: string | undefined
  body: any
}

const TYPES = ['text', 'image', 'video', 'audio', 'document', 'interactive']

function problemOf(body: any): string | null {
  if (!body || typeof body !== 'object') return 'Invalid JSON body'
  if (body.messaging_product !== 'whatsapp') return 'The parameter messaging_product is required.'
  if (typeof body.to !== 'string' || !/^\d{6,20}$/.test(body.to)) return 'Invalid parameter: to'
  if (!TYPES.includes(body.type)) return `Invalid parameter: type ${String(body.type)}`
  switch (body.type) {
    case 'text': {
      const text = body.text?.body
      if (typeof text !== 'string' || !text.trim()) return 'The parameter text[body] is required.'
      if (text.length > 4096) return 'Param text[body] must be at most 4096 characters long.'
      return null
    }
    case 'image':
    case 'video':
    case 'audio':
    case 'document': {
      const link = body[body.type]?.link
      if (typeof link !== 'string' || !/^https?:\/\//.test(link)) {
        return `The parameter ${body.type}[link] is required.`
      }
      return null
    }
    case 'interactive': {
      const interactive = body.interactive
      if (interactive?.type === 'list') return listProblem(interactive)
      if (interactive?.type !== 'button') return 'Unsupported interactive type'
      const text = interactive.body?.text
      if (typeof text !== 'string' || !text.trim()) {
        return 'The parameter interactive[body][text] is required.'
      }
      if (text.length > 1024)
        return 'Param interactive[body][text] must be at most 1024 characters.'
      const buttons = interactive.action?.buttons
      if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) {
        return 'Param interactive[action][buttons] must contain between 1 and 3 elements.'
      }
      const ids = new Set<string>()
      const titles = new Set<string>()
      for (const button of buttons) {
        const id = button?.reply?.id
        const title = button?.reply?.title
        if (button?.type !== 'reply') return 'Button type must be reply'
        if (typeof id !== 'string' || !id || id.length > 256) return 'Invalid button id'
        if (typeof title !== 'string' || !title || title.length > 20) {
          return 'Button title length invalid. Min length: 1, Max length: 20'
        }
        if (ids.has(id) || titles.has(title)) return 'Button titles and ids must be unique'
        ids.add(id)
        titles.add(title)
      }
      return null
    }
  }
  return null
}

/** Meta's checks of a list message: 1 to 10 rows over all sections, titles of 24, ids unique. */
function listProblem(interactive: any): string | null {
  const text = interactive.body?.text
  if (typeof text !== 'string' || !text.trim()) {
    return 'The parameter interactive[body][text] is required.'
  }
  if (text.length > 4096) return 'Param interactive[body][text] must be at most 4096 characters.'
  const button = interactive.action?.button
  if (typeof button !== 'string' || !button || button.length > 20) {
    return 'Param interactive[action][button] must be between 1 and 20 characters.'
  }
  const sections = interactive.action?.sections
  if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10) {
    return 'Param interactive[action][sections] must contain between 1 and 10 elements.'
  }
  if (sections.length > 1 && sections.some((section: any) => !section?.title)) {
    return 'Section title is required when there is more than one section.'
  }
  const ids = new Set<string>()
  let rows = 0
  for (const section of sections) {
    if (section?.title !== undefined && String(section.title).length > 24) {
      return 'Section title must be at most 24 characters.'
    }
    for (const row of section?.rows ?? []) {
      rows++
      if (typeof row?.id !== 'string' || !row.id || row.id.length > 200) return 'Invalid row id'
      if (typeof row.title !== 'string' || !row.title || row.title.length > 24) {
        return 'Row title length invalid. Min length: 1, Max length: 24'
      }
      if (row.description !== undefined && String(row.description).length > 72) {
        return 'Row description must be at most 72 characters.'
      }
      if (ids.has(row.id)) return 'Row ids must be unique'
      ids.add(row.id)
    }
  }
  if (rows < 1 || rows > 10) return 'Total row count exceed max allowed count: 10'
  return null
}

/** A file the contact sent: the Graph API gives its URL, downloaded with the same token. */
export interface WhatsAppMedia {
  bytes: Buffer
  mimeType: string
}

export async function startWhatsAppStandIn(options: { token: string; phoneNumberId: string }) {
  const sent: WhatsAppSent[] = []
  let lastId = 0
  const media = new Map<string, WhatsAppMedia>()
  // Media lookups and downloads, in order (what the bot fetched).
  const fetched: string[] = []
  // Known once listening: the media URLs point back here.
  let base = ''

  const standIn = await startStandIn(
    ({ req, res, url, body, isJson, text }) => {
      const error = (status: number, message: string, code = 100) =>
        sendJson(res, status, {
          error: { message, type: 'OAuthException', code, fbtrace_id: 'stand-in' },
        })
      const authorization = req.headers.authorization
      const unauthorized = authorization !== `Bearer ${options.token}`
      const refuseToken = () =>
        error(401, 'Invalid OAuth access token - Cannot parse access token', 190)
      const download = /^\/media-download\/([\w.-]+)$/.exec(url.pathname)
      if (download && req.method === 'GET') {
        // Meta's media URLs answer 404 without the token.
        const file = media.get(download[1])
        if (unauthorized || !file) return sendJson(res, 404, { error: 'Not found' })
        fetched.push(`download:${download[1]}`)
        res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.length })
        return res.end(file.bytes)
      }
      const node = /^\/(v\d+\.\d+)\/([\w.-]+)$/.exec(url.pathname)
      if (node && req.method === 'GET') {
        if (unauthorized) return refuseToken()
        const [, , id] = node
        if (id === options.phoneNumberId) {
          return sendJson(res, 200, {
            verified_name: 'Acme Shop',
            display_phone_number: '+1 555-078-3881',
            quality_rating: 'GREEN',
            id,
          })
        }
        const file = media.get(id)
        if (!file) {
          return error(
            400,
            `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`
          )
        }
        fetched.push(`lookup:${id}`)
        return sendJson(res, 200, {
          messaging_product: 'whatsapp',
          url: `${base}/media-download/${id}`,
          mime_type: file.mimeType,
          sha256: 'stand-in',
          file_size: file.bytes.length,
          id,
        })
      }
      const match = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(url.pathname)
      if (!match || req.method !== 'POST') return error(404, 'Unknown path components', 2500)
      const [, version, phoneNumberId] = match
      if (unauthorized) return refuseToken()
      if (phoneNumberId !== options.phoneNumberId) {
        return error(
          400,
          `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`
        )
      }
      if (text && !isJson) return error(400, 'Invalid JSON body')
      const problem = problemOf(body)
      if (problem) return error(400, problem)
      sent.push({ phoneNumberId, version, authorization, body })
      sendJson(res, 200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.standin${++lastId}` }],
      })
    },
    { record: () => undefined }
  )
  base = standIn.baseUrl

  let nextMessage = 0
  return {
    baseUrl: standIn.baseUrl,
    sent,
    fetched,
    /** Makes a file the contact can send (its media id in a message). */
    addMedia(id: string, file: WhatsAppMedia) {
      media.set(id, file)
    },
    /** Meta's GET handshake when the webhook is saved in the app's settings. */
    async verify(callbackUrl: string, verifyToken: string, challenge = '1158201444') {
      const url = new URL(callbackUrl)
      url.searchParams.set('hub.mode', 'subscribe')
      url.searchParams.set('hub.verify_token', verifyToken)
      url.searchParams.set('hub.challenge', challenge)
      const response = await fetch(url)
      return { status: response.status, body: await response.text() }
    },
    /** A message notification as Meta sends it; the same `id` again plays a retry. */
    message(
      from: string,
      content:
        | { text: string }
        | { buttonId: string; title: string }
        | { listRowId: string; title: string }
        | {
            mediaId: string
            type: 'image' | 'audio' | 'video' | 'document'
            voice?: boolean
            filename?: string
            caption?: string
          },
      id = `wamid.in${++nextMessage}`,
      name = 'Ada'
    ) {
      const head = { from, id, timestamp: '1700000000' }
      const message =
        'text' in content
          ? { ...head, type: 'text', text: { body: content.text } }
          : 'buttonId' in content
            ? {
                ...head,
                type: 'interactive',
                interactive: {
                  type: 'button_reply',
                  button_reply: { id: content.buttonId, title: content.title },
                },
              }
            : 'listRowId' in content
              ? {
                  ...head,
                  type: 'interactive',
                  interactive: {
                    type: 'list_reply',
                    list_reply: { id: content.listRowId, title: content.title },
                  },
                }
              : {
                  ...head,
                  type: content.type,
                  [content.type]: {
                    id: content.mediaId,
                    mime_type: media.get(content.mediaId)?.mimeType ?? 'application/octet-stream',
                    sha256: 'stand-in',
                    ...(content.voice ? { voice: true } : {}),
                    ...(content.filename ? { filename: content.filename } : {}),
                    ...(content.caption ? { caption: content.caption } : {}),
                  },
                }
      return {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: {
                    display_phone_number: '15550783881',
                    phone_number_id: options.phoneNumberId,
                  },
                  contacts: [{ profile: { name }, wa_id: from }],
                  messages: [message],
                },
              },
            ],
          },
        ],
      }
    },
    /** POSTs a notification signed with the app secret (or a given signature header). */
    async deliver(
      callbackUrl: string,
      payload: unknown,
      sign: { appSecret?: string; signature?: string | null } = {}
    ) {
      const raw = JSON.stringify(payload)
      const signature =
        sign.signature !== undefined
          ? sign.signature
          : sign.appSecret
            ? `sha256=${createHmac('sha256', sign.appSecret).update(raw).digest('hex')}`
            : null
      const response = await fetch(callbackUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
        body: raw,
      })
      const answer = await response.text()
      let json: any = null
      try {
        json = JSON.parse(answer)
      } catch {}
      return { status: response.status, body: json ?? answer }
    },
    close: standIn.close,
  }
}
