import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A mail kept for the dev mailbox when no SMTP server is configured. */
export default class DevMail extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare to: string

  @column()
  declare subject: string

  @column()
  declare text: string

  @column()
  declare html: string | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
