import vine from '@vinejs/vine'
import { VERSION_NAME_MAX_LENGTH } from '#shared/history/types'

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

/** "Use this template": the folder the new bot goes in (the dashboard when absent). */
export const useTemplateValidator = vine.compile(
  vine.object({
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

/** A template preview's first call: the chat start fields that make sense without a bot. */
export const templatePreviewStartValidator = vine.compile(
  vine.object({
    message: vine.string().maxLength(10_000).optional(),
    prefilledVariables: vine.record(vine.any()).optional(),
    textBubbleContentFormat: vine.enum(['richText', 'markdown'] as const).optional(),
  })
)

/** POST a named version of a bot's history (docs/workflows.md "History"). */
export const namedBotVersionValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(VERSION_NAME_MAX_LENGTH),
  })
)
