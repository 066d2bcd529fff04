import vine from '@vinejs/vine'
import { LANGUAGE_TAG } from '#shared/bot/translations'
import { DRAFT_MAX_TEXTS, DRAFT_MAX_TEXT_LENGTH } from '#shared/bot/translation_drafts'

/**
 * POST the texts a language lacks, for the AI to draft (docs/bots.md "Languages"): the
 * editor sends them as it shows them, unsaved edits included.
 */
export const draftTranslationsValidator = vine.compile(
  vine.object({
    language: vine.string().trim().regex(LANGUAGE_TAG),
    texts: vine
      .array(
        vine.object({
          key: vine.string().trim().minLength(1).maxLength(300),
          source: vine.string().trim().minLength(1).maxLength(DRAFT_MAX_TEXT_LENGTH),
        })
      )
      .minLength(1)
      .maxLength(DRAFT_MAX_TEXTS),
    credentialsId: vine.string().trim().maxLength(64).nullable().optional(),
  })
)
