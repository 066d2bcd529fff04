import vine from '@vinejs/vine'

/**
 * The body of `/api/{plugin}/{call}`: stored
 * credentials by id (never a URL), the table (SQL) or the collection (Firestore) and what the
 * call needs.
 */
export const runPluginCallValidator = vine.compile(
  vine.object({
    workspaceId: vine.string().trim().maxLength(64).optional(),
    credentialsId: vine.string().trim().maxLength(64),
    tableName: vine.string().trim().maxLength(128).optional(),
    collection: vine.string().trim().maxLength(1500).optional(),
    columns: vine.array(vine.object({}).allowUnknownProperties()).maxLength(200).optional(),
    fields: vine.array(vine.object({}).allowUnknownProperties()).maxLength(200).optional(),
    conditions: vine.array(vine.object({}).allowUnknownProperties()).maxLength(50).optional(),
    responseMapping: vine.array(vine.object({}).allowUnknownProperties()).maxLength(50).optional(),
  })
)
