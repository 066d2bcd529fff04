/**
 * The bounds of the numbers a builder sets in a bot's settings and theme, with the
 * messages for a value outside them. The editor's fields take their min, max and step
 * from here (resources/features/bot_editor), and the server refuses the same values with
 * the same words (app/validators/bot.ts, and every save in app/actions/bots/bots.ts), so
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
  /** Seconds (spec 02 section 5). */
  delayBetweenBubbles: { min: 0, max: 5, step: 0.1 },
  /** Hours, WhatsApp and Telegram (spec 02 section 5). */
  sessionExpiryTimeout: { min: 0.01, max: 48, step: 1 },
} as const satisfies Record<string, NumberBound>

export const THEME_BOUNDS = {
  /** 0 to 1 (spec 02 section 5). */
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

export interface BoundProblem {
  /** Dotted path from the bot's root: 'settings.typingEmulation.delayBetweenBubbles'. */
  path: string
  message: string
}

/** Every number of `content.settings` and `content.theme` that is out of its bounds. */
export function botBoundProblems(content: { settings?: unknown; theme?: unknown }) {
  const problems: BoundProblem[] = []
  for (const { path, bound } of BOT_NUMBER_FIELDS) {
    let value: unknown = content
    for (const key of path) {
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined
    }
    const message = numberProblem(value, bound)
    if (message) problems.push({ path: path.join('.'), message })
  }
  return problems
}
