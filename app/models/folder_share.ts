import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'
import type { FolderAccess } from '#shared/folder_access'

/** One member's access to a restricted folder (docs/folder_sharing.md). */
export default class FolderShare extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare folderId: string

  @column()
  declare userId: string

  @column()
  declare access: FolderAccess

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
