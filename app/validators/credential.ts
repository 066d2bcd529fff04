import vine from '@vinejs/vine'

// Values are checked against the plugin's credential fields by the action.
const data = vine.record(vine.any().nullable().optional()).optional()

/** Web form: the workspace is the current one. */
export const createCredentialValidator = vine.compile(
  vine.object({
    type: vine.string().trim().minLength(1).maxLength(100),
    name: vine.string().trim().minLength(1).maxLength(255),
    data,
  })
)

/** REST API: POST /api/v1/credentials. */
export const apiCreateCredentialValidator = vine.compile(
  vine.object({
    workspaceId: vine.string().trim().minLength(1).maxLength(32),
    type: vine.string().trim().minLength(1).maxLength(100),
    name: vine.string().trim().minLength(1).maxLength(255),
    data,
  })
)

export const updateCredentialValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    data,
  })
)
