import { createHmac, timingSafeEqual } from 'node:crypto'
import { channelHttp } from './telegram.js'
import type { IncomingMessage } from './conversation.js'
import type { Choice, Outgoing } from './outgoing.js'
import { MediaTooLarge, readLimited, type IncomingMedia, type MediaKind } from './media.js'

/**
 * A bot on a WhatsApp number through the WhatsApp Cloud API
 * (https://developers.facebook.com/docs/whatsapp/cloud-api): Meta calls our webhook (a GET
 * handshake with the verify token, then POSTs signed with the app secret in
 * X-Hub-Signature-256); we answer with POST /{version}/{phoneNumberId}/messages.
 */

export interface WhatsAppSecrets {
  systemUserAccessToken: string
  phoneNumberId: string
  /** Checks X-Hub-Signature-256 when set. */
  appSecret?: string
  /** Another Graph API host (a proxy); graph.facebook.com otherwise. */
  baseUrl?: string
}

export const WHATSAPP_DEFAULT_BASE_URL = 'https://graph.facebook.com'
export const GRAPH_API_VERSION = 'v21.0'
/** Reply buttons per interactive message (WhatsApp's limit). */
export const WHATSAPP_BUTTON_GROUP_SIZE = 3
/** WhatsApp's limit on a reply button's title. */
const BUTTON_TITLE_CHARS = 20
/** Rows of a list message (WhatsApp's limit over all its sections). */
export const WHATSAPP_LIST_ROWS = 10
/** WhatsApp's limits on a list message's parts. */
const ROW_TITLE_CHARS = 24
const ROW_DESCRIPTION_CHARS = 72
const ROW_ID_CHARS = 200
const LIST_BODY_CHARS = 4096
/** The button that opens the list, and the title of its section (numbers follow). */
const LIST_BUTTON = 'Choose'
const LIST_SECTION = 'Options'
/** Body of the list messages carrying the 11th choice on (a body is required). */
const MORE_CHOICES_BODY = 'More options'

export function validSignature(rawBody: string, header: string | undefined, appSecret: string) {
  if (!header || !header.startsWith('sha256=')) return false
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')
  const given = Buffer.from(header.slice('sha256='.length), 'utf8')
  const wanted = Buffer.from(expected, 'utf8')
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

function graphBase(secrets: Pick<WhatsAppSecrets, 'baseUrl'>) {
  return String(secrets.baseUrl || WHATSAPP_DEFAULT_BASE_URL).replace(/\/+$/, '')
}

const MEDIA_TYPES: Record<string, MediaKind> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'document',
  sticker: 'sticker',
}

/** A file in a message: its media id, downloaded through the Graph API with the token. */
function mediaOf(message: any, secrets: WhatsAppSecrets): IncomingMedia | undefined {
  const kind = MEDIA_TYPES[message.type]
  const media = kind ? message[message.type] : undefined
  if (!kind || !media?.id) return undefined
  return {
    // A voice note is an audio message marked voice.
    kind: kind === 'audio' && media.voice ? 'voice' : kind,
    id: String(media.id),
    fileName: typeof media.filename === 'string' ? media.filename : undefined,
    mimeType: typeof media.mime_type === 'string' ? media.mime_type : undefined,
    download: (maxBytes) => downloadWhatsAppMedia(secrets, String(media.id), maxBytes),
  }
}

/**
 * GET /{version}/{media-id} answers the file's short-lived URL and size; the URL is then
 * fetched with the same token (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media).
 */
export async function downloadWhatsAppMedia(
  secrets: WhatsAppSecrets,
  mediaId: string,
  maxBytes: number
) {
  const http = channelHttp()
  const base = graphBase(secrets)
  const authorization = `Bearer ${secrets.systemUserAccessToken}`
  const metaResponse = await http.request(
    `${base}/${GRAPH_API_VERSION}/${encodeURIComponent(mediaId)}`,
    { method: 'GET', headers: { authorization } }
  )
  const meta = (await metaResponse.json().catch(() => null)) as any
  if (!metaResponse.ok || typeof meta?.url !== 'string') {
    throw new Error(
      `WhatsApp refused the media ${mediaId}: ${meta?.error?.message ?? metaResponse.status}`
    )
  }
  if (Number(meta.file_size) > maxBytes) throw new MediaTooLarge()
  const response = await http.request(meta.url, { method: 'GET', headers: { authorization } })
  if (!response.ok) throw new Error(`WhatsApp refused the media download: ${response.status}`)
  return {
    bytes: await readLimited(response, maxBytes),
    contentType: response.headers.get('content-type') ?? meta.mime_type ?? undefined,
  }
}

/**
 * The messages of a webhook call meant for this number (status updates are not messages).
 * With the secrets, a file in a message can be downloaded.
 */
export function incomingOfPayload(
  payload: any,
  phoneNumberId: string,
  secrets?: WhatsAppSecrets
): IncomingMessage[] {
  if (!payload || payload.object !== 'whatsapp_business_account' || !Array.isArray(payload.entry)) {
    return []
  }
  const incoming: IncomingMessage[] = []
  for (const entry of payload.entry) {
    for (const change of entry?.changes ?? []) {
      const value = change?.value
      if (!value || String(value.metadata?.phone_number_id ?? '') !== phoneNumberId) continue
      const names = new Map<string, string>()
      for (const contact of value.contacts ?? []) {
        if (contact?.wa_id && contact.profile?.name)
          names.set(String(contact.wa_id), contact.profile.name)
      }
      for (const message of value.messages ?? []) {
        if (!message?.id || !message.from) continue
        const from = String(message.from)
        incoming.push({
          deliveryId: `message:${message.id}`,
          contactId: from,
          contact: { name: names.get(from), phoneNumber: from },
          text: textOf(message),
          media: secrets ? mediaOf(message, secrets) : undefined,
        })
      }
    }
  }
  return incoming
}

function textOf(message: any): string {
  switch (message.type) {
    case 'text':
      return String(message.text?.body ?? '')
    case 'interactive':
      return String(
        message.interactive?.button_reply?.id ?? message.interactive?.list_reply?.id ?? ''
      )
    case 'button':
      return String(message.button?.payload ?? message.button?.text ?? '')
    case 'image':
    case 'video':
    case 'document':
      return String(message[message.type]?.caption ?? '')
    default:
      return ''
  }
}

function cut(label: string, chars: number) {
  return label.length <= chars ? label : `${label.slice(0, chars - 1)}…`
}

function buttonsBody(base: object, text: string, choices: Choice[]) {
  return {
    ...base,
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text },
      action: {
        buttons: choices.map((choice) => ({
          type: 'reply',
          reply: { id: choice.id || choice.label, title: cut(choice.label, BUTTON_TITLE_CHARS) },
        })),
      },
    },
  }
}

/**
 * A list message: a button opening up to 10 rows. A label longer than the title of a row is
 * written in full in the description of that row; the reply (list_reply.id) is the id of the item.
 */
function listBody(base: object, text: string, choices: Choice[], offset: number) {
  return {
    ...base,
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: cut(text, LIST_BODY_CHARS) },
      action: {
        button: LIST_BUTTON,
        sections: [
          {
            title: cut(`${LIST_SECTION} ${offset + 1}–${offset + choices.length}`, ROW_TITLE_CHARS),
            rows: choices.map((choice) => ({
              id: (choice.id || choice.label).slice(0, ROW_ID_CHARS),
              title: cut(choice.label, ROW_TITLE_CHARS),
              ...(choice.label.length > ROW_TITLE_CHARS
                ? { description: cut(choice.label, ROW_DESCRIPTION_CHARS) }
                : {}),
            })),
          },
        ],
      },
    },
  }
}

/**
 * The Cloud API bodies of a reply, in order. Choices: up to 3 as reply buttons (the most
 * the Cloud API puts in one interactive message), more as list messages of up to 10 rows each.
 */
export function whatsAppBodies(to: string, messages: Outgoing[]): Record<string, unknown>[] {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to }
  const bodies: Record<string, unknown>[] = []
  for (const message of messages) {
    switch (message.kind) {
      case 'text':
        bodies.push({ ...base, type: 'text', text: { body: message.text, preview_url: true } })
        break
      case 'image':
      case 'video':
      case 'audio':
        bodies.push({ ...base, type: message.kind, [message.kind]: { link: message.url } })
        break
      case 'file': {
        const filename = decodeURIComponent(
          new URL(message.url).pathname.split('/').pop() || 'file'
        )
        bodies.push({ ...base, type: 'document', document: { link: message.url, filename } })
        break
      }
      case 'choices':
        if (message.choices.length <= WHATSAPP_BUTTON_GROUP_SIZE) {
          bodies.push(buttonsBody(base, message.text, message.choices))
        } else {
          for (let start = 0; start < message.choices.length; start += WHATSAPP_LIST_ROWS) {
            const rows = message.choices.slice(start, start + WHATSAPP_LIST_ROWS)
            bodies.push(listBody(base, start === 0 ? message.text : MORE_CHOICES_BODY, rows, start))
          }
        }
        break
    }
  }
  return bodies
}

/**
 * Checks the token and the phone number ID with GET /{version}/{phoneNumberId}; answers
 * the number as WhatsApp displays it, or throws Meta's reason.
 */
export async function whatsAppPhoneNumber(secrets: WhatsAppSecrets) {
  const base = graphBase(secrets)
  let response: Response
  try {
    response = await channelHttp().request(
      `${base}/${GRAPH_API_VERSION}/${encodeURIComponent(secrets.phoneNumberId)}`,
      { method: 'GET', headers: { authorization: `Bearer ${secrets.systemUserAccessToken}` } }
    )
  } catch (error) {
    throw new Error(`WhatsApp could not be reached at ${base} (${(error as Error).name})`)
  }
  const answer = (await response.json().catch(() => null)) as any
  if (!response.ok) {
    const reason = answer?.error?.message ?? `${response.status} ${response.statusText}`.trim()
    throw new Error(`WhatsApp refused the token or the phone number ID: ${reason}`)
  }
  return {
    displayPhoneNumber: String(answer?.display_phone_number ?? ''),
    verifiedName: String(answer?.verified_name ?? ''),
  }
}

/** Sends the reply in order; stops at the first refusal and throws it with Meta's reason. */
export async function sendWhatsApp(secrets: WhatsAppSecrets, to: string, messages: Outgoing[]) {
  const http = channelHttp()
  const base = graphBase(secrets)
  const url = `${base}/${GRAPH_API_VERSION}/${encodeURIComponent(secrets.phoneNumberId)}/messages`
  for (const body of whatsAppBodies(to, messages)) {
    let response: Response
    try {
      response = await http.request(url, {
        method: 'POST',
        headers: {
          'authorization': `Bearer ${secrets.systemUserAccessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    } catch (error) {
      throw new Error(`WhatsApp could not be reached at ${base} (${(error as Error).name})`)
    }
    if (!response.ok) {
      const answer = (await response.json().catch(() => null)) as any
      const reason = answer?.error?.message ?? `${response.status} ${response.statusText}`.trim()
      throw new Error(`WhatsApp refused a message: ${reason}`)
    }
  }
}
