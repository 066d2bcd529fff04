import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { jsonText } from '#models/json_text'
import type {
  CopilotDocumentType,
  CopilotMessageRole,
  CopilotMessageType,
  CopilotUsage,
} from '#shared/copilot'

/** One message of a copilot conversation (docs/copilot.md). */
export default class CopilotMessage extends BaseModel {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare userId: string

  @column()
  declare workspaceId: string

  @column()
  declare documentType: CopilotDocumentType

  @column()
  declare documentId: string

  @column()
  declare role: CopilotMessageRole

  @column()
  declare type: CopilotMessageType

  @column()
  declare content: string

  @column()
  declare versionId: string | null

  @column({ consume: (value: unknown) => !!value })
  declare showVersionCard: boolean

  @column({ consume: (value: unknown) => !!value })
  declare counted: boolean

  @column(jsonText)
  declare usage: CopilotUsage | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
