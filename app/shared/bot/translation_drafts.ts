/**
 * Drafting a language's missing texts with AI (docs/bots.md "Languages"): the limits the
 * editor and the server share. The editor sends the texts in batches of this size, so a
 * large bot is drafted in several calls and each answer stays small enough for any model.
 */
export const DRAFT_MAX_TEXTS = 40
export const DRAFT_MAX_TEXT_LENGTH = 4000

export interface DraftTranslationsRequest {
  language: string
  texts: { key: string; source: string }[]
  credentialsId?: string | null
}

export interface DraftTranslationsResponse {
  /** The drafted translation of each text key; a text the model left out is absent. */
  drafts: Record<string, string>
}
