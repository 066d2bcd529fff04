import { timingSafeEqual } from 'node:crypto'
import env from '#start/env'
import { TELEGRAM_DEFAULT_BASE_URL, callTelegram } from '#sdk/telegram'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { HttpClient } from '#plugins/define_plugin'
import type { IncomingMessage } from './conversation.js'
import type { Outgoing } from './outgoing.js'
import { MediaTooLarge, readLimited, type IncomingMedia, type MediaKind } from './media.js'

/**
 * A bot on Telegram through the Bot API (https://core.telegram.org/bots/api): the webhook
 * is registered with a secret token Telegram echoes in X-Telegram-Bot-Api-Secret-Token;
 * texts go as HTML, media by URL, choices as an inline keyboard whose presses come back as
 * callback queries.
 */

export interface TelegramSecrets {
  botToken: string
  /** A self-hosted Bot API server; api.telegram.org otherwise. */
  baseUrl?: string
}

export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token'
/** The updates a bot's chat needs: messages and button presses. */
export const TELEGRAM_UPDATES = ['message', 'callback_query']
/** Telegram's limit on callback_data, in bytes. */
const CALLBACK_DATA_BYTES = 64

export function channelHttp(): HttpClient {
  return createGuardedHttp({ allowInternal: env.get('ALLOW_INTERNAL_HTTP'), timeoutMs: 15_000 })
}

function credentialsOf(secrets: TelegramSecrets) {
  return { accessToken: secrets.botToken, baseUrl: secrets.baseUrl }
}

export function call<T = unknown>(
  secrets: TelegramSecrets,
  method: string,
  body: Record<string, unknown>
) {
  return callTelegram<T>(credentialsOf(secrets), method, body, { http: channelHttp() })
}

/** The bot's name, checking the token (getMe answers any valid token). */
export async function telegramBotName(secrets: TelegramSecrets) {
  const me = await call<{ username?: string; first_name?: string }>(secrets, 'getMe', {})
  return me.username ? `@${me.username}` : (me.first_name ?? 'bot')
}

export async function setTelegramWebhook(
  secrets: TelegramSecrets,
  url: string,
  secretToken: string
) {
  await call(secrets, 'setWebhook', {
    url,
    secret_token: secretToken,
    allowed_updates: TELEGRAM_UPDATES,
  })
}

export async function deleteTelegramWebhook(secrets: TelegramSecrets) {
  await call(secrets, 'deleteWebhook', {})
}

export function sameSecret(given: string | undefined, expected: string) {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function nameOf(user: Record<string, any> | undefined) {
  if (!user) return undefined
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ')
  return name || user.username || undefined
}

export interface TelegramIncoming extends IncomingMessage {
  chatId: number | string
  /** A button press is acknowledged, or the client shows a spinner on it. */
  callbackQueryId?: string
}

/** The file of a message: the largest size of a photo, or the voice note, audio, video... */
function mediaOf(
  message: Record<string, any>,
  secrets: TelegramSecrets
): IncomingMedia | undefined {
  const found: [MediaKind, Record<string, any> | undefined][] = [
    ['image', Array.isArray(message.photo) ? message.photo.at(-1) : undefined],
    ['voice', message.voice],
    ['audio', message.audio],
    ['video', message.video ?? message.video_note],
    ['document', message.document],
    ['sticker', message.sticker],
  ]
  const [kind, file] = found.find(([, candidate]) => candidate?.file_id) ?? []
  if (!kind || !file) return undefined
  const size = Number(file.file_size) || undefined
  return {
    kind,
    id: String(file.file_id),
    size,
    fileName: typeof file.file_name === 'string' ? file.file_name : undefined,
    mimeType: typeof file.mime_type === 'string' ? file.mime_type : undefined,
    download: (maxBytes) => downloadTelegramFile(secrets, String(file.file_id), maxBytes),
  }
}

/** getFile gives the file's path, then GET {base}/file/bot{token}/{file_path}. */
export async function downloadTelegramFile(
  secrets: TelegramSecrets,
  fileId: string,
  maxBytes: number
) {
  const file = await call<{ file_path?: string; file_size?: number }>(secrets, 'getFile', {
    file_id: fileId,
  })
  if (Number(file.file_size) > maxBytes) throw new MediaTooLarge()
  if (!file.file_path) throw new Error('Telegram gave no path for the file')
  const base = String(secrets.baseUrl || TELEGRAM_DEFAULT_BASE_URL).replace(/\/+$/, '')
  let response: Response
  try {
    response = await channelHttp().request(
      `${base}/file/bot${secrets.botToken}/${file.file_path}`,
      { method: 'GET' }
    )
  } catch (error) {
    // The URL holds the token: the message names the server only.
    throw new Error(`Telegram could not be reached at ${base} (${(error as Error).name})`)
  }
  if (!response.ok) throw new Error(`Telegram refused the file download: ${response.status}`)
  return {
    bytes: await readLimited(response, maxBytes),
    contentType: response.headers.get('content-type') ?? undefined,
    fileName: file.file_path.split('/').pop(),
  }
}

/**
 * The message of an update, or null for updates a chat does not take (edits, joins...).
 * With the secrets, a file in the message can be downloaded.
 */
export function incomingOfUpdate(
  update: Record<string, any>,
  secrets?: TelegramSecrets
): TelegramIncoming | null {
  if (typeof update?.update_id !== 'number') return null
  const deliveryId = `update:${update.update_id}`
  if (update.message && update.message.chat) {
    const message = update.message
    const text =
      typeof message.text === 'string'
        ? message.text
        : typeof message.caption === 'string'
          ? message.caption
          : ''
    return {
      deliveryId,
      chatId: message.chat.id,
      contactId: String(message.chat.id),
      contact: { name: nameOf(message.from) },
      text,
      media: secrets ? mediaOf(message, secrets) : undefined,
      // The parts of an album share it (docs/channels.md, "Several files at once").
      groupId: message.media_group_id ? String(message.media_group_id) : undefined,
    }
  }
  const query = update.callback_query
  if (query && query.message?.chat) {
    return {
      deliveryId,
      chatId: query.message.chat.id,
      contactId: String(query.message.chat.id),
      contact: { name: nameOf(query.from) },
      text: typeof query.data === 'string' ? query.data : '',
      callbackQueryId: String(query.id),
    }
  }
  return null
}

function callbackDataOf(choice: { id: string; label: string }) {
  if (choice.id && Buffer.byteLength(choice.id) <= CALLBACK_DATA_BYTES) return choice.id
  // The choice inputs take the label as an answer too.
  return Buffer.from(choice.label).subarray(0, CALLBACK_DATA_BYTES).toString('utf8')
}

/** Sends the reply in order; stops at the first refusal and throws it. */
export async function sendTelegram(
  secrets: TelegramSecrets,
  chatId: number | string,
  messages: Outgoing[]
) {
  for (const message of messages) {
    switch (message.kind) {
      case 'text':
        await call(secrets, 'sendMessage', {
          chat_id: chatId,
          text: message.text,
          parse_mode: 'HTML',
        })
        break
      case 'image':
        await call(secrets, 'sendPhoto', { chat_id: chatId, photo: message.url })
        break
      case 'video':
        await call(secrets, 'sendVideo', { chat_id: chatId, video: message.url })
        break
      case 'audio':
        await call(secrets, 'sendAudio', { chat_id: chatId, audio: message.url })
        break
      case 'file':
        await call(secrets, 'sendDocument', { chat_id: chatId, document: message.url })
        break
      case 'choices':
        await call(secrets, 'sendMessage', {
          chat_id: chatId,
          text: message.text,
          parse_mode: 'HTML',
          reply_markup: {
            inline_keyboard: message.choices.map((choice) => [
              { text: choice.label, callback_data: callbackDataOf(choice) },
            ]),
          },
        })
        break
    }
  }
}
