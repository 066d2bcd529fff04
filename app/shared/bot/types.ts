/**
 * The v6 bot content format: groups of blocks joined by edges, one start event,
 * variables, theme and settings. Shared by the server (import, save, publish, engine)
 * and the React editor, so this file holds types and plain defaults only.
 *
 * Field names follow the open format used across this ecosystem so that files exported
 * by other tools import unchanged. Block options are typed loosely on purpose: each
 * plugin declares its own (plugins/<slug>/index.ts) and the core never names a plugin.
 */

export type BotVersion = '3' | '4' | '5' | '6'

export interface Coordinates {
  x: number
  y: number
}

/**
 * Where an edge leaves from: the start event, a block, one item of a block, or the "No
 * reply" exit of an input block with a reply timeout (`timeout: true`).
 */
export type EdgeSource = { eventId: string } | { blockId: string; itemId?: string; timeout?: true }

/** Where an edge arrives: a group (its first block) or a given block of it. */
export interface EdgeTarget {
  groupId: string
  blockId?: string
}

export interface Edge {
  id: string
  from: EdgeSource
  to: EdgeTarget
}

/** Comparisons shown on choice items ("display condition") and Condition items. */
export interface Comparison {
  id?: string
  variableId?: string
  comparisonOperator?: string
  value?: string
}

export interface ConditionContent {
  comparisons?: Comparison[]
  logicalOperator?: 'AND' | 'OR'
}

export interface Item {
  id: string
  blockId?: string
  outgoingEdgeId?: string
  /** Button text for choices, a ConditionContent for Condition items, ... */
  content?: unknown
  /** AB-test items: which path this item is. */
  path?: 'a' | 'b'
  displayCondition?: { isEnabled?: boolean; condition?: ConditionContent }
  /** Picture choice items. */
  pictureSrc?: string
  title?: string
  description?: string
  [key: string]: unknown
}

export type BlockOptions = Record<string, unknown>

export interface Block {
  id: string
  /** The plugin id: 'text', 'choice input', 'Condition', 'openai', ... */
  type: string
  outgoingEdgeId?: string
  options?: BlockOptions
  /** Bubbles keep their settings in `content` instead of `options`. */
  content?: Record<string, unknown>
  /** Choice, picture choice, Condition and AB test blocks. */
  items?: Item[]
  /**
   * Input blocks: no answer within `seconds` takes the "No reply" exit (its edge is
   * `outgoingEdgeId`; without one the chat ends there). docs/bots.md, "Reply timeout".
   */
  timeout?: BlockTimeout
}

export interface BlockTimeout {
  seconds: number
  outgoingEdgeId?: string
}

/** Bounds of a reply timeout: one second to a week. */
export const TIMEOUT_MIN_SECONDS = 1
export const TIMEOUT_MAX_SECONDS = 7 * 24 * 3600

export interface Group {
  id: string
  title: string
  graphCoordinates: Coordinates
  blocks: Block[]
}

export interface BotEvent {
  id: string
  /** Only 'start' exists today; other types are kept untouched if an import has them. */
  type: 'start' | (string & {})
  graphCoordinates: Coordinates
  outgoingEdgeId?: string
}

export type VariableValue = string | string[] | null

export interface Variable {
  id: string
  name: string
  isSessionVariable?: boolean
  value?: VariableValue
}

// ---------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------

export type RememberUserStorage = 'session' | 'local'

export interface BotSettings {
  general?: {
    isBrandingEnabled?: boolean
    isTypingEmulationEnabled?: boolean
    isInputPrefillEnabled?: boolean
    isHideQueryParamsEnabled?: boolean
    isNewResultOnRefreshEnabled?: boolean
    rememberUser?: { isEnabled?: boolean; storage?: RememberUserStorage }
  }
  typingEmulation?: {
    enabled?: boolean
    /** Words per minute. */
    speed?: number
    /** Seconds. */
    maxDelay?: number
    /** Seconds, 0 to 5. */
    delayBetweenBubbles?: number
    isDisabledOnFirstMessage?: boolean
  }
  metadata?: {
    title?: string
    description?: string
    imageUrl?: string
    favIconUrl?: string
    customHeadCode?: string
    googleTagManagerId?: string
  }
  whatsApp?: ChannelSettings
  telegram?: ChannelSettings & { botToken?: string; webhookUrl?: string }
  publicShare?: { isEnabled?: boolean }
  security?: { allowedOrigins?: string[] }
}

export interface ChannelSettings {
  isEnabled?: boolean
  startCondition?: ConditionContent
  /** Hours, 0.01 to 48. */
  sessionExpiryTimeout?: number
}

// ---------------------------------------------------------------------------
// Theme
// ---------------------------------------------------------------------------

export type ShadowSize = 'none' | 'sm' | 'md' | 'lg' | 'xl' | '2xl'
export type Roundness = 'none' | 'medium' | 'large' | 'custom' | 'default'

export interface BorderTheme {
  thickness?: number
  color?: string
  opacity?: number
  /** Spelled as in the format. */
  roundeness?: Roundness
  customRoundeness?: number
}

export interface ElementTheme {
  backgroundColor?: string
  color?: string
  placeholderColor?: string
  blur?: number
  opacity?: number
  shadow?: ShadowSize
  border?: BorderTheme
}

export interface AvatarTheme {
  isEnabled?: boolean
  url?: string
}

export type FontTheme =
  | string
  | { type: 'Google'; family?: string }
  | { type: 'Custom'; family?: string; css?: string; url?: string }

export interface BotTheme {
  general?: {
    font?: FontTheme
    background?: { type?: 'Color' | 'Image' | 'None'; content?: string }
    progressBar?: {
      isEnabled?: boolean
      color?: string
      backgroundColor?: string
      placement?: 'Top' | 'Bottom'
      thickness?: number
      position?: 'fixed' | 'absolute'
    }
  }
  chat?: {
    container?: ElementTheme & { maxWidth?: string; maxHeight?: string; width?: string }
    hostAvatar?: AvatarTheme
    guestAvatar?: AvatarTheme
    hostBubbles?: ElementTheme
    guestBubbles?: ElementTheme
    buttons?: ElementTheme
    inputs?: ElementTheme
  }
  customCss?: string
}

// ---------------------------------------------------------------------------
// Bot
// ---------------------------------------------------------------------------

export interface ResultsTablePreferences {
  columnsOrder?: string[]
  columnsVisibility?: Record<string, boolean>
  columnsWidth?: Record<string, number>
}

/** What a bot's history version keeps: its content (docs/workflows.md "History"). */
export type BotSnapshot = Pick<
  BotV6,
  'name' | 'groups' | 'events' | 'edges' | 'variables' | 'theme' | 'settings'
>

export interface BotV6 {
  version: '6'
  id?: string
  name: string
  groups: Group[]
  events: BotEvent[]
  edges: Edge[]
  variables: Variable[]
  theme: BotTheme
  settings: BotSettings
  selectedThemeTemplateId?: string | null
  icon?: string | null
  folderId?: string | null
  publicId?: string | null
  customDomain?: string | null
  workspaceId?: string
  accountId?: string | null
  resultsTablePreferences?: ResultsTablePreferences | null
  isArchived?: boolean
  isClosed?: boolean
  whatsAppCredentialsId?: string | null
  riskLevel?: number | null
  createdAt?: string
  updatedAt?: string
}

// ---------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------

export const DEFAULT_BOT_NAME = 'My bot'

/** The settings of a new bot. Functions, not constants: callers may mutate the result. */
export function defaultSettings(): BotSettings {
  return {
    general: {
      isBrandingEnabled: false,
      isTypingEmulationEnabled: true,
      isInputPrefillEnabled: false,
      isHideQueryParamsEnabled: true,
      isNewResultOnRefreshEnabled: true,
      rememberUser: { isEnabled: false, storage: 'session' },
    },
    typingEmulation: {
      enabled: true,
      speed: 400,
      maxDelay: 3,
      delayBetweenBubbles: 0,
      isDisabledOnFirstMessage: true,
    },
    metadata: {},
    // Off until the builder shares the flow: a bot is private by default.
    publicShare: { isEnabled: false },
    security: { allowedOrigins: [] },
  }
}

const PRIMARY = '#2563eb'
const DARK_TEXT = '#1f2937'
const LIGHT_TEXT = '#ffffff'

/** The theme of a new bot: blue primary, light blue host bubbles, Poppins, 800px wide. */
export function defaultTheme(): BotTheme {
  return {
    general: {
      font: { type: 'Google', family: 'Poppins' },
      background: { type: 'Color', content: '#ffffff' },
      progressBar: {
        isEnabled: false,
        color: PRIMARY,
        backgroundColor: '#e5edff',
        placement: 'Top',
        thickness: 4,
        position: 'absolute',
      },
    },
    chat: {
      container: { maxWidth: '800px', width: '100%', backgroundColor: '#ffffff', color: DARK_TEXT },
      hostAvatar: { isEnabled: true },
      guestAvatar: { isEnabled: false },
      hostBubbles: { backgroundColor: '#eaf2ff', color: DARK_TEXT },
      guestBubbles: { backgroundColor: PRIMARY, color: LIGHT_TEXT },
      buttons: { backgroundColor: PRIMARY, color: LIGHT_TEXT },
      inputs: { backgroundColor: '#ffffff', color: DARK_TEXT, placeholderColor: '#9ca3af' },
    },
    customCss: '',
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Stored values over defaults, objects merged key by key (lists and scalars replace). */
function mergeDefaults<T>(defaults: T, stored: unknown): T {
  if (!isPlainObject(defaults) || !isPlainObject(stored)) {
    return (stored === undefined ? defaults : stored) as T
  }
  const merged: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(stored)) {
    merged[key] = mergeDefaults((defaults as Record<string, unknown>)[key], value)
  }
  return merged as T
}

/**
 * Stored bots may hold only what the builder changed (imports often do): the engine and
 * the settings forms read these instead of the raw objects.
 */
export function resolveSettings(settings: BotSettings | undefined | null): BotSettings {
  return mergeDefaults(defaultSettings(), settings ?? {})
}

export function resolveTheme(theme: BotTheme | undefined | null): BotTheme {
  return mergeDefaults(defaultTheme(), theme ?? {})
}
