import vine from '@vinejs/vine'

/* A theme is free-form JSON (the open format's theme object); the editor draws what it knows. */
const theme = () => vine.record(vine.any())

export const createThemeTemplateValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(100),
    theme: theme(),
  })
)

export const updateThemeTemplateValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(100).optional(),
    theme: theme().optional(),
  })
)
