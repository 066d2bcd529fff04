import { randomBytes } from 'node:crypto'
import env from '#start/env'
import { appUrl } from '#config/app'
import AppError from '#exceptions/app_error'
import type Bot from '#models/bot'
import BotChannel, { type ChannelName } from '#models/bot_channel'
import PublishedBot from '#models/published_bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { decryptCredentials, encryptCredentials } from '#plugins/vault'
import { planFor, featureError } from '#services/capabilities'
import { resolveSettings, type BotSettings } from '#shared/bot/types'
import type { ChannelStatus } from '#shared/bot/channels'

export type { ChannelStatus }
import {
  deleteTelegramWebhook,
  setTelegramWebhook,
  telegramBotName,
  type TelegramSecrets,
} from '#services/channels/telegram'
import { whatsAppPhoneNumber, type WhatsAppSecrets } from '#services/channels/whatsapp'

/**
 * Connecting a bot to its messaging channels (docs/channels.md). The secrets are kept
 * encrypted beside the bot, never in its document (which builders export and share); the
 * Telegram webhook follows the published bot: set when it is published with Telegram
 * enabled, deleted when it is unpublished, disabled or disconnected.
 */

export function channelSecrets<T>(record: BotChannel): T {
  return decryptCredentials<T>({ iv: record.iv, data: record.data }, env.get('ENCRYPTION_SECRET'))
}

function store(record: BotChannel, secrets: object) {
  const encrypted = encryptCredentials(secrets, env.get('ENCRYPTION_SECRET'))
  record.iv = encrypted.iv
  record.data = encrypted.data
}

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

function connectError(description: string, field?: string) {
  return new AppError('Could not connect the channel', { status: 422, description, field })
}

/** A secret left empty keeps its stored value (the form never shows stored secrets). */
function kept(sent: string | undefined, stored: string | undefined) {
  return sent && sent.trim() ? sent.trim() : stored
}

export interface TelegramConnectInput {
  botToken?: string
  baseUrl?: string
}

export interface WhatsAppConnectInput {
  systemUserAccessToken?: string
  phoneNumberId?: string
  appSecret?: string
  verifyToken?: string
  baseUrl?: string
}

async function findRecord(bot: Bot, channel: ChannelName) {
  return BotChannel.query().where({ bot_id: bot.id, channel }).first()
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
    store(record, secrets)
    await record.save()
    await syncTelegramWebhook(bot.id)
    return channelStatus(bot, 'telegram')
  }
}

export class ConnectWhatsApp {
  async handle(user: User, workspace: Workspace, bot: Bot, input: WhatsAppConnectInput) {
    const { plan } = await planFor(user, workspace)
    if (!plan.features.whatsApp) throw featureError('whatsApp')
    const existing = await findRecord(bot, 'whatsapp')
    const stored = existing ? channelSecrets<WhatsAppSecrets>(existing) : undefined
    const secrets: WhatsAppSecrets = {
      systemUserAccessToken: kept(input.systemUserAccessToken, stored?.systemUserAccessToken) ?? '',
      phoneNumberId: input.phoneNumberId?.trim() || stored?.phoneNumberId || '',
      appSecret: kept(input.appSecret, stored?.appSecret),
      baseUrl: input.baseUrl?.trim() || stored?.baseUrl,
    }
    if (!secrets.systemUserAccessToken) {
      throw connectError('The system user access token is required.', 'systemUserAccessToken')
    }
    if (!/^\d{5,32}$/.test(secrets.phoneNumberId)) {
      throw connectError(
        'The phone number ID is the number Meta shows under WhatsApp > API Setup (digits only).',
        'phoneNumberId'
      )
    }
    try {
      await whatsAppPhoneNumber(secrets)
    } catch (error) {
      throw connectError((error as Error).message, 'systemUserAccessToken')
    }
    // Meta signs every webhook call with the app secret; without it anyone who learns the
    // callback URL could speak for any WhatsApp user (issue 27).
    if (!secrets.appSecret) {
      throw connectError(
        'The app secret is required: Meta signs each webhook call with it (App settings > Basic), and unsigned calls are refused.',
        'appSecret'
      )
    }
    const record = existing ?? new BotChannel()
    if (!existing) {
      record.botId = bot.id
      record.channel = 'whatsapp'
      record.webhookUrl = null
    }
    const verifyToken = input.verifyToken?.trim()
    if (verifyToken && !/^[\x21-\x7e]{8,64}$/.test(verifyToken)) {
      throw connectError(
        'The verify token is 8 to 64 visible characters, no spaces.',
        'verifyToken'
      )
    }
    record.webhookSecret = verifyToken || record.webhookSecret || randomBytes(16).toString('hex')
    record.lastError = null
    store(record, secrets)
    await record.save()
    return channelStatus(bot, 'whatsapp')
  }
}

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
