import vine from '@vinejs/vine'

/**
 * POST /api/v1/workflows/import-n8n: an n8n export (pasted text or its JSON) for a
 * workspace; `save` false gives the report only. The export's shape is checked by
 * readN8nExport (app/services/n8n_import/n8n_export.ts).
 */
export const importN8nValidator = vine.compile(
  vine.object({
    workspaceId: vine.string().trim().minLength(1).maxLength(64),
    workflow: vine.any(),
    save: vine.boolean().optional(),
    name: vine.string().trim().maxLength(255).optional(),
  })
)
