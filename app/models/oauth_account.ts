import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'

export default class OauthAccount extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: string

  @column()
  declare provider: string

  @column()
  declare providerUserId: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
