import { DateTime } from 'luxon'
import { column } from '@adonisjs/lucid/orm'
import BaseModelWithId from '#models/base_model_with_id'

export default class Folder extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare parentFolderId: string | null

  @column()
  declare name: string

  /** The member who created it; they keep access and manage its sharing. */
  @column()
  declare createdBy: string | null

  /** Shared with chosen members only (docs/folder_sharing.md); false: every member sees it. */
  @column({ consume: Boolean })
  declare isRestricted: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
