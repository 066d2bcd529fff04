/**
 * Bot templates (the "from a template" way of creating a bot). The
 * templates themselves are v6 bot files in database/templates/<id>.json; this is what the
 * browser and the server share about them.
 */

/** The gallery's categories, in the order its filter shows them. */
export const TEMPLATE_CATEGORIES = [
  'marketing',
  'product',
  'business-finance',
  'education-knowledge',
  'media-arts-entertainment',
  'other',
] as const

export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number]

/** A template as the gallery lists it (no bot content: the preview runs on the server). */
export interface BotTemplateSummary {
  id: string
  name: string
  description: string
  category: TemplateCategory
  emoji: string
  /** How many groups and blocks the bot has, shown on the card. */
  groupCount: number
  blockCount: number
}

/** A template id: the file name, lower-case words joined by hyphens. */
export const TEMPLATE_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
