import { createHmac, timingSafeEqual } from 'node:crypto'
import { channelHttp } from './telegram.js'
import type { IncomingMessage } from './conversation.js'
import type { Outgoing } from './outgoing.js'

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
/** Reply buttons per interactive message (WhatsApp's limit; docs/spec/01-app.md configuration). */
export const WHATSAPP_BUTTON_GROUP_SIZE = 3
/** WhatsApp's limit on a reply button's title. */
const BUTTON_TITLE_CHARS = 20
/** Body of the messages carrying the 2nd, 3rd... group of buttons (a body is required). */
const MORE_CHOICES_BODY = '…'

export function validSignature(rawBody: string, header: string | undefined, appSecret: string) {
  if (!header || !header.startsWith('sha256=')) return false
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')
  const given = Buffer.from(header.slice('sha256='.length), 'utf8')
  const wanted = Buffer.from(expected, 'utf8')
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/** The messages of a webhook call meant for this number (status updates are not messages). */
export function incomingOfPayload(payload: any, phoneNumberId: string): IncomingMessage[] {
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

function title(label: string) {
  return label.length <= BUTTON_TITLE_CHARS ? label : `${label.slice(0, BUTTON_TITLE_CHARS - 1)}…`
}

/** The Cloud API bodies of a reply, in order (choices in interactive messages of 3 buttons). */
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
        for (let start = 0; start < message.choices.length; start += WHATSAPP_BUTTON_GROUP_SIZE) {
          const group = message.choices.slice(start, start + WHATSAPP_BUTTON_GROUP_SIZE)
          bodies.push({
            ...base,
            type: 'interactive',
            interactive: {
              type: 'button',
              body: { text: start === 0 ? message.text : MORE_CHOICES_BODY },
              action: {
                buttons: group.map((choice) => ({
                  type: 'reply',
                  reply: { id: choice.id || choice.label, title: title(choice.label) },
                })),
              },
            },
          })
        }
        break
    }
  }
  return bodies
}

/** Sends the reply in order; stops at the first refusal and throws it with Meta's reason. */
export async function sendWhatsApp(secrets: WhatsAppSecrets, to: string, messages: Outgoing[]) {
  const http = channelHttp()
  const base = String(secrets.baseUrl || WHATSAPP_DEFAULT_BASE_URL).replace(/\/+$/, '')
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
