import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import type { ChannelName } from '#shared/bot/channels'

export type { ChannelName }

/**
 * A bot connected to a messaging channel (docs/channels.md). The secrets (bot token,
 * system user token, app secret) are encrypted in iv/data like credentials and never
 * leave the server.
 */
export default class BotChannel extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare botId: string

  @column()
  declare channel: ChannelName

  @column({ serializeAs: null })
  declare iv: string

  @column({ serializeAs: null })
  declare data: string

  @column({ serializeAs: null })
  declare webhookSecret: string

  @column()
  declare webhookUrl: string | null

  @column()
  declare lastError: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
