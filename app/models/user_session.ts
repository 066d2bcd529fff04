import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'

/** One signed-in browser session (app/services/auth/user_sessions.ts). */
export default class UserSession extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
