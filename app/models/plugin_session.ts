import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonText } from '#models/json_text'

/** A plugin's conversation with a service calling back (docs/plugins.md, "Sessions called back by a service"). */
export default class PluginSession extends BaseModel {
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare pluginId: string

  @column()
  declare workspaceId: string

  @column()
  declare ownerId: string | null

  @column()
  declare runId: string | null

  @column()
  declare nodeId: string | null

  @column()
  declare status: 'open' | 'closed'

  @column({ ...jsonText, serializeAs: null })
  declare state: Record<string, unknown> | null

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
