import { randomBytes } from 'node:crypto'
import type Bot from '#models/bot'
import BotChannel from '#models/bot_channel'
import PublishedBot from '#models/published_bot'
import { resolveSettings, type BotSettings } from '#shared/bot/types'
import {
  deleteTelegramWebhook,
  setTelegramWebhook,
  telegramBotName,
  type TelegramSecrets,
} from '#services/channels/telegram'
import { channelWebhookUrl, channelStatus, connectError, kept, findRecord } from './bot_channels.js'
import { channelSecrets, storeChannelSecrets } from '#services/channels/channel_secrets'

export interface TelegramConnectInput {
  botToken?: string
  baseUrl?: string
}

export class ConnectTelegram {
  /** Checks the token with getMe, keeps it, and registers the webhook if the bot runs there. */
  async handle(bot: Bot, input: TelegramConnectInput) {
    const existing = await findRecord(bot, 'telegram')
    const stored = existing ? channelSecrets<TelegramSecrets>(existing) : undefined
    const secrets: TelegramSecrets = {
      botToken: kept(input.botToken, stored?.botToken) ?? '',
      baseUrl: input.baseUrl?.trim() || stored?.baseUrl,
    }
    if (!secrets.botToken) throw connectError('The bot token is required.', 'botToken')
    try {
      await telegramBotName(secrets)
    } catch (error) {
      throw connectError((error as Error).message, 'botToken')
    }
    const record = existing ?? new BotChannel()
    if (!existing) {
      record.botId = bot.id
      record.channel = 'telegram'
      record.webhookSecret = randomBytes(24).toString('hex')
      record.webhookUrl = null
    } else if (stored && stored.botToken !== secrets.botToken && record.webhookUrl) {
      // Another bot: the old one stops sending here.
      await deleteTelegramWebhook(stored).catch(() => {})
      record.webhookUrl = null
    }
    record.lastError = null
    storeChannelSecrets(record, secrets)
    await record.save()
    await syncTelegramWebhook(bot.id)
    return channelStatus(bot, 'telegram')
  }
}

function telegramEnabled(settings: BotSettings | undefined | null) {
  return resolveSettings(settings ?? {}).telegram?.isEnabled === true
}

/**
 * Makes Telegram's webhook match the published bot: set while it is published with
 * Telegram enabled, deleted otherwise. A refusal does not undo the publication: it is kept
 * as the channel's last error, which the bot's settings show.
 */
export async function syncTelegramWebhook(botId: string) {
  const record = await BotChannel.query().where({ bot_id: botId, channel: 'telegram' }).first()
  if (!record) return
  const published = await PublishedBot.findBy('bot_id', botId)
  const secrets = channelSecrets<TelegramSecrets>(record)
  try {
    if (published && telegramEnabled(published.settings)) {
      const url = channelWebhookUrl(record)
      await setTelegramWebhook(secrets, url, record.webhookSecret)
      record.webhookUrl = url
    } else if (record.webhookUrl) {
      await deleteTelegramWebhook(secrets)
      record.webhookUrl = null
    }
    record.lastError = null
  } catch (error) {
    record.lastError = (error as Error).message
  }
  await record.save()
}
