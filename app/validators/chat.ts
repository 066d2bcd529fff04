import vine from '@vinejs/vine'

/** The chat API's bodies (app/shared/chat/types.ts). */

const format = vine.enum(['richText', 'markdown'] as const).optional()

const startFields = {
  message: vine.string().maxLength(10_000).optional(),
  resultId: vine.string().trim().maxLength(64).optional(),
  isStreamEnabled: vine.boolean().optional(),
  isOnlyRegistering: vine.boolean().optional(),
  prefilledVariables: vine.record(vine.any()).optional(),
  textBubbleContentFormat: format,
  /** A language of a bot in several languages ('fr', 'pt-BR'); the default when it has none. */
  language: vine.string().trim().maxLength(35).optional(),
  source: vine.enum(['web', 'messenger', 'whatsapp', 'telegram'] as const).optional(),
  geo: vine
    .object({
      country: vine.string().trim().maxLength(100).optional(),
      region: vine.string().trim().maxLength(100).optional(),
      city: vine.string().trim().maxLength(100).optional(),
      latitude: vine.number().min(-90).max(90).optional(),
      longitude: vine.number().min(-180).max(180).optional(),
    })
    .optional(),
}

export const startChatValidator = vine.compile(vine.object(startFields))

export const previewStartChatValidator = vine.compile(
  vine.object({
    ...startFields,
    startFrom: vine
      .object({
        type: vine.enum(['group', 'event'] as const),
        groupId: vine.string().trim().maxLength(64).optional().requiredWhen('type', '=', 'group'),
        eventId: vine.string().trim().maxLength(64).optional().requiredWhen('type', '=', 'event'),
      })
      .optional(),
    bot: vine.any().optional(),
    sessionId: vine
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional(),
  })
)

/** The message is a text or {type, text|url, attachedFileUrls}: checked by toInputAnswer. */
export const continueChatValidator = vine.compile(
  vine.object({
    message: vine.any().optional(),
    textBubbleContentFormat: format,
  })
)

/** A reply timeout fired on the client: the question it was set for (docs/bots.md). */
export const timeoutChatValidator = vine.compile(
  vine.object({
    blockId: vine.string().trim().maxLength(64).optional(),
    textBubbleContentFormat: format,
  })
)
