import type BotChannel from '#models/bot_channel'
import { channelSecrets } from '#services/channels/channel_secrets'
import { logChannelError, type ChannelOutcome } from './conversation.js'
import { outgoingOf } from './outgoing.js'
import { downloadTelegramFile, sendTelegram, type TelegramSecrets } from './telegram.js'
import { downloadWhatsAppMedia, sendWhatsApp, type WhatsAppSecrets } from './whatsapp.js'

/** Telegram takes a chat's numeric id; a held message only kept it as text. */
function telegramChatId(contactId: string | number) {
  return typeof contactId === 'string' && /^-?\d+$/.test(contactId) ? Number(contactId) : contactId
}

/**
 * Sends a turn's reply on the channel. The turn is written: sending again on a retry would
 * repeat it, so a refusal is logged on the result instead of thrown.
 */
export async function sendChannelReply(
  record: BotChannel,
  contactId: string | number,
  outcome: Extract<ChannelOutcome, { kind: 'reply' }>
) {
  try {
    if (record.channel === 'telegram') {
      const secrets = channelSecrets<TelegramSecrets>(record)
      await sendTelegram(secrets, telegramChatId(contactId), outgoingOf(outcome.reply, 'telegram'))
    } else {
      const secrets = channelSecrets<WhatsAppSecrets>(record)
      await sendWhatsApp(secrets, String(contactId), outgoingOf(outcome.reply, 'whatsapp'))
    }
  } catch (error) {
    await logChannelError(outcome.resultId, (error as Error).message)
  }
}

/** Downloads a file the contact sent, by the platform's id of it. */
export function channelDownloader(record: BotChannel) {
  if (record.channel === 'telegram') {
    const secrets = channelSecrets<TelegramSecrets>(record)
    return (fileId: string, maxBytes: number) => downloadTelegramFile(secrets, fileId, maxBytes)
  }
  const secrets = channelSecrets<WhatsAppSecrets>(record)
  return (mediaId: string, maxBytes: number) => downloadWhatsAppMedia(secrets, mediaId, maxBytes)
}
