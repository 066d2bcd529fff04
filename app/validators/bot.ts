import vine from '@vinejs/vine'

/* The content is checked by validateBot (app/shared/bot/parse.ts); any JSON value may appear. */
const anyValue = () => vine.any().nullable().optional()
const content = {
  groups: vine.array(anyValue()).optional(),
  events: vine.array(anyValue()).optional(),
  edges: vine.array(anyValue()).optional(),
  variables: vine.array(anyValue()).optional(),
  theme: vine.record(anyValue()).optional(),
  settings: vine.record(anyValue()).optional(),
}

/** PATCH a bot: any subset; the content is then parsed against the bot format. */
export const updateBotValidator = vine.compile(
  vine.object({
    ...content,
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    icon: vine.string().trim().maxLength(1024).nullable().optional(),
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
    publicId: vine.string().trim().maxLength(255).nullable().optional(),
    customDomain: vine.string().trim().maxLength(255).nullable().optional(),
    isArchived: vine.boolean().optional(),
    isClosed: vine.boolean().optional(),
    resultsTablePreferences: vine.record(anyValue()).nullable().optional(),
    selectedThemeTemplateId: vine.string().maxLength(32).nullable().optional(),
  })
)

export const createBotValidator = vine.compile(
  vine.object({
    name: vine.string().trim().maxLength(255).optional(),
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

export const folderValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    parentFolderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)
