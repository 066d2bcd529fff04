/**
 * The bounds of the numbers a builder sets in a bot's settings and theme, and the formats
 * of its addresses, IDs and sizes, with the messages for a value that does not fit. The editor's fields take their min, max and step
 * from here (resources/features/bot_editor), and the server refuses the same values with
 * the same words (app/validators/bot.ts, and every save in app/actions/bots/), so
 * the two cannot drift apart (docs/security.md, "Plan limits").
 */

export interface NumberBound {
  min: number
  max?: number
  /** What the editor's arrow keys add. */
  step?: number
}

export const SETTINGS_BOUNDS = {
  /** Words per minute. */
  typingSpeed: { min: 1, max: 5000, step: 1 },
  /** Seconds. */
  typingMaxDelay: { min: 0, max: 60, step: 0.5 },
  /** Seconds. */
  delayBetweenBubbles: { min: 0, max: 5, step: 0.1 },
  /** Hours, WhatsApp and Telegram. */
  sessionExpiryTimeout: { min: 0.01, max: 48, step: 1 },
} as const satisfies Record<string, NumberBound>

export const THEME_BOUNDS = {
  /** 0 to 1. */
  opacity: { min: 0, max: 1, step: 0.05 },
  /** Pixels. */
  blur: { min: 0, max: 40 },
  borderThickness: { min: 0, max: 20 },
  customRoundness: { min: 0, max: 100 },
  progressBarThickness: { min: 1, max: 32 },
} as const satisfies Record<string, NumberBound>

/** The chat elements the Theme tab styles (each with opacity, blur and a border). */
export const THEMED_CHAT_ELEMENTS = [
  'container',
  'hostBubbles',
  'guestBubbles',
  'buttons',
  'inputs',
] as const

/** Where each bound applies, as paths from the bot's root (`settings` or `theme`). */
export const BOT_NUMBER_FIELDS: { path: string[]; bound: NumberBound }[] = [
  { path: ['settings', 'typingEmulation', 'speed'], bound: SETTINGS_BOUNDS.typingSpeed },
  { path: ['settings', 'typingEmulation', 'maxDelay'], bound: SETTINGS_BOUNDS.typingMaxDelay },
  {
    path: ['settings', 'typingEmulation', 'delayBetweenBubbles'],
    bound: SETTINGS_BOUNDS.delayBetweenBubbles,
  },
  ...(['whatsApp', 'telegram'] as const).map((channel) => ({
    path: ['settings', channel, 'sessionExpiryTimeout'],
    bound: SETTINGS_BOUNDS.sessionExpiryTimeout,
  })),
  {
    path: ['theme', 'general', 'progressBar', 'thickness'],
    bound: THEME_BOUNDS.progressBarThickness,
  },
  ...THEMED_CHAT_ELEMENTS.flatMap((element) => [
    { path: ['theme', 'chat', element, 'opacity'], bound: THEME_BOUNDS.opacity },
    { path: ['theme', 'chat', element, 'blur'], bound: THEME_BOUNDS.blur },
    {
      path: ['theme', 'chat', element, 'border', 'thickness'],
      bound: THEME_BOUNDS.borderThickness,
    },
    {
      path: ['theme', 'chat', element, 'border', 'customRoundeness'],
      bound: THEME_BOUNDS.customRoundness,
    },
  ]),
]

/** The editor's English messages (editor.settings.number, atLeast, between). */
export const NOT_A_NUMBER_MESSAGE = 'Must be a number'

export function boundMessage(bound: NumberBound) {
  return bound.max === undefined
    ? `Must be at least ${bound.min}`
    : `Must be between ${bound.min} and ${bound.max}`
}

/** Why `value` does not fit `bound` (undefined when it does, or when it is absent). */
export function numberProblem(value: unknown, bound: NumberBound): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) return NOT_A_NUMBER_MESSAGE
  if (value < bound.min || (bound.max !== undefined && value > bound.max)) {
    return boundMessage(bound)
  }
  return undefined
}

/** Formats of the settings' and theme's texts, as the editor's fields check them. */
export type TextFormat = 'url' | 'cssLength' | 'gtm'

export const GTM_ID_PATTERN = /^GTM-[A-Z0-9]+$/i
export const CSS_LENGTH_PATTERN = /^\d+(\.\d+)?(px|%|rem|em|vw|vh)$/

export function isHttpUrl(text: string) {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const FORMAT_CHECKS: Record<TextFormat, (text: string) => boolean> = {
  url: isHttpUrl,
  cssLength: (text) => CSS_LENGTH_PATTERN.test(text),
  gtm: (text) => GTM_ID_PATTERN.test(text),
}

/** The editor's English messages (botSettings.errors.url and gtm, theme.errors.cssLength). */
export const TEXT_FORMAT_MESSAGES: Record<TextFormat, string> = {
  url: 'Enter a full address starting with http:// or https://',
  cssLength: 'Enter a size like 800px or 100%',
  gtm: 'Enter an ID like GTM-XXXXXXX',
}

/** Where each format applies; `onlyIf`: only when a sibling has that value. */
export const BOT_TEXT_FIELDS: {
  path: string[]
  format: TextFormat
  onlyIf?: { key: string; equals: string }
}[] = [
  { path: ['settings', 'metadata', 'imageUrl'], format: 'url' },
  { path: ['settings', 'metadata', 'favIconUrl'], format: 'url' },
  { path: ['settings', 'metadata', 'googleTagManagerId'], format: 'gtm' },
  { path: ['theme', 'chat', 'container', 'maxWidth'], format: 'cssLength' },
  { path: ['theme', 'chat', 'container', 'maxHeight'], format: 'cssLength' },
  { path: ['theme', 'chat', 'hostAvatar', 'url'], format: 'url' },
  { path: ['theme', 'chat', 'guestAvatar', 'url'], format: 'url' },
  {
    path: ['theme', 'general', 'background', 'content'],
    format: 'url',
    onlyIf: { key: 'type', equals: 'Image' },
  },
]

/** Why `value` does not have `format` (undefined when it does, or when it is empty). */
export function textProblem(value: unknown, format: TextFormat): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') return TEXT_FORMAT_MESSAGES[format]
  const text = value.trim()
  if (text === '' || FORMAT_CHECKS[format](text)) return undefined
  return TEXT_FORMAT_MESSAGES[format]
}

export interface BoundProblem {
  /** Dotted path from the bot's root: 'settings.typingEmulation.delayBetweenBubbles'. */
  path: string
  message: string
}

function valueAt(root: unknown, path: string[]) {
  let value: unknown = root
  for (const key of path) {
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined
  }
  return value
}

/**
 * Every number of `content.settings` and `content.theme` out of its bounds, and every text
 * not in its format.
 */
export function botFieldProblems(content: { settings?: unknown; theme?: unknown }) {
  const problems: BoundProblem[] = []
  for (const { path, bound } of BOT_NUMBER_FIELDS) {
    const message = numberProblem(valueAt(content, path), bound)
    if (message) problems.push({ path: path.join('.'), message })
  }
  for (const { path, format, onlyIf } of BOT_TEXT_FIELDS) {
    if (onlyIf && valueAt(content, [...path.slice(0, -1), onlyIf.key]) !== onlyIf.equals) continue
    const message = textProblem(valueAt(content, path), format)
    if (message) problems.push({ path: path.join('.'), message })
  }
  return problems
}
