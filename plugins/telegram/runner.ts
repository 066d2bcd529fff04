import type { Runner } from '#sdk/plugin'
import { callTelegram } from '#sdk/telegram'
import type plugin from './index.js'

/** Telegram's caption limit (photos, documents) and message limit, in characters. */
const CAPTION_MAX = 1024
const TEXT_MAX = 4096

interface SentMessage {
  message_id: number
  date: number
  chat: { id: number | string; type?: string }
}

type Common = {
  chatId?: string
  parseMode?: string
  replyToMessageId?: string
  disableNotification?: boolean
}

/** The fields every send method shares, as Telegram names them. */
function common(options: Common) {
  const chat = options.chatId?.trim()
  if (!chat) throw new Error('Telegram: the chat ID is empty')
  const body: Record<string, unknown> = { chat_id: /^-?\d+$/.test(chat) ? Number(chat) : chat }
  if (options.parseMode && options.parseMode !== 'none') body.parse_mode = options.parseMode
  if (options.disableNotification) body.disable_notification = true
  const reply = options.replyToMessageId?.trim()
  if (reply) {
    if (!/^\d+$/.test(reply)) throw new Error(`Telegram: "${reply}" is not a message ID`)
    body.reply_parameters = { message_id: Number(reply) }
  }
  return body
}

function caption(text: string | undefined) {
  const value = text ?? ''
  if (value.length > CAPTION_MAX) {
    throw new Error(`Telegram: the caption has ${value.length} characters (at most ${CAPTION_MAX})`)
  }
  return value ? { caption: value } : {}
}

function outputOf(message: SentMessage) {
  return { messageId: message.message_id, chatId: message.chat.id, date: message.date }
}

const sendMessage: Runner<typeof plugin, 'Send a message'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const text = options.text ?? ''
  if (!text.trim()) throw new Error('Telegram: the text is empty')
  if (text.length > TEXT_MAX) {
    throw new Error(`Telegram: the text has ${text.length} characters (at most ${TEXT_MAX})`)
  }
  const body: Record<string, unknown> = { ...common(options), text }
  if (options.disableWebPagePreview) body.link_preview_options = { is_disabled: true }
  const sent = await callTelegram<SentMessage>(credentials, 'sendMessage', body, { http, signal })
  logger.success(`Message sent to chat ${sent.chat.id}`)
  return { output: outputOf(sent) }
}

const sendPhoto: Runner<typeof plugin, 'Send a photo'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const photo = options.photo?.trim()
  if (!photo) throw new Error('Telegram: the photo is empty')
  const body = { ...common(options), photo, ...caption(options.caption) }
  const sent = await callTelegram<SentMessage>(credentials, 'sendPhoto', body, { http, signal })
  logger.success(`Photo sent to chat ${sent.chat.id}`)
  return { output: outputOf(sent) }
}

const sendDocument: Runner<typeof plugin, 'Send a document'> = async (context) => {
  const { options, credentials, http, signal, logger } = context
  const document = options.document?.trim()
  if (!document) throw new Error('Telegram: the document is empty')
  const body = { ...common(options), document, ...caption(options.caption) }
  const sent = await callTelegram<SentMessage>(credentials, 'sendDocument', body, { http, signal })
  logger.success(`Document sent to chat ${sent.chat.id}`)
  return { output: outputOf(sent) }
}

export default {
  'Send a message': sendMessage,
  'Send a photo': sendPhoto,
  'Send a document': sendDocument,
}
