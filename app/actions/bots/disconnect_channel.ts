import AppError from '#exceptions/app_error'
import type Bot from '#models/bot'
import { type ChannelName } from '#models/bot_channel'
import { deleteTelegramWebhook, type TelegramSecrets } from '#services/channels/telegram'
import { findRecord } from './bot_channels.js'
import { channelSecrets } from '#services/channels/channel_secrets'

export class DisconnectChannel {
  async handle(bot: Bot, channel: ChannelName) {
    const record = await findRecord(bot, channel)
    if (!record) return
    if (channel === 'telegram' && record.webhookUrl) {
      try {
        await deleteTelegramWebhook(channelSecrets<TelegramSecrets>(record))
      } catch (error) {
        throw new AppError('Could not disconnect Telegram', {
          status: 502,
          description: `${(error as Error).message}. The token is kept; try again.`,
        })
      }
    }
    await record.delete()
  }
}
