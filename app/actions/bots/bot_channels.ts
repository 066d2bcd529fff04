import { appUrl } from '#config/app'
import AppError from '#exceptions/app_error'
import type Bot from '#models/bot'
import BotChannel, { type ChannelName } from '#models/bot_channel'
import { channelSecrets } from '#services/channels/channel_secrets'
import type { ChannelStatus } from '#shared/bot/channels'
import { type WhatsAppSecrets } from '#services/channels/whatsapp'

export type { ChannelStatus }

/**
 * Connecting a bot to its messaging channels (docs/channels.md). The secrets are kept
 * encrypted beside the bot, never in its document (which builders export and share); the
 * Telegram webhook follows the published bot: set when it is published with Telegram
 * enabled, deleted when it is unpublished, disabled or disconnected.
 */

export function channelWebhookUrl(record: Pick<BotChannel, 'id' | 'channel'>) {
  return `${appUrl.replace(/\/+$/, '')}/api/v1/channels/${record.channel}/${record.id}`
}

function statusOf(channel: ChannelName, record: BotChannel | undefined): ChannelStatus {
  if (!record) return { channel, connected: false, webhookUrl: null, lastError: null }
  const status: ChannelStatus = {
    channel,
    connected: true,
    webhookUrl: record.webhookUrl,
    lastError: record.lastError,
  }
  if (channel === 'whatsapp') {
    const secrets = channelSecrets<WhatsAppSecrets>(record)
    status.callbackUrl = channelWebhookUrl(record)
    status.verifyToken = record.webhookSecret
    status.phoneNumberId = secrets.phoneNumberId
    status.hasAppSecret = Boolean(secrets.appSecret)
  }
  return status
}

export async function channelStatuses(bot: Bot): Promise<ChannelStatus[]> {
  const records = await BotChannel.query().where('bot_id', bot.id)
  return (['telegram', 'whatsapp'] as const).map((channel) =>
    statusOf(
      channel,
      records.find((record) => record.channel === channel)
    )
  )
}

export async function channelStatus(bot: Bot, channel: ChannelName) {
  return (await channelStatuses(bot)).find((status) => status.channel === channel)!
}

export function connectError(description: string, field?: string) {
  return new AppError('Could not connect the channel', { status: 422, description, field })
}

/** A secret left empty keeps its stored value (the form never shows stored secrets). */
export function kept(sent: string | undefined, stored: string | undefined) {
  return sent && sent.trim() ? sent.trim() : stored
}

export async function findRecord(bot: Bot, channel: ChannelName) {
  return BotChannel.query().where({ bot_id: bot.id, channel }).first()
}
