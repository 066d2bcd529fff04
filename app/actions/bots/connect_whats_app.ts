import { randomBytes } from 'node:crypto'
import type Bot from '#models/bot'
import BotChannel from '#models/bot_channel'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { planFor, featureError } from '#services/capabilities'
import { whatsAppPhoneNumber, type WhatsAppSecrets } from '#services/channels/whatsapp'
import { channelStatus, connectError, kept, findRecord } from './bot_channels.js'
import { channelSecrets, storeChannelSecrets } from '#services/channels/channel_secrets'

export interface WhatsAppConnectInput {
  systemUserAccessToken?: string
  phoneNumberId?: string
  appSecret?: string
  verifyToken?: string
  baseUrl?: string
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
    storeChannelSecrets(record, secrets)
    await record.save()
    return channelStatus(bot, 'whatsapp')
  }
}
