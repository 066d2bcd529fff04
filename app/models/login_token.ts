import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'

export default class LoginToken extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare email: string

  @column()
  declare tokenHash: string

  @column()
  declare name: string | null

  @column()
  declare redirectPath: string | null

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime()
  declare usedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
