/**
 * The chat API contract: what startChat / continueChat receive and
 * answer. Shared by the server (engine, controllers, OpenAPI) and the browser (viewer,
 * embed), so this file holds types and small pure helpers only.
 *
 * The messages, inputs, client-side actions and replies are the SDK's (`@flowcraft/sdk/chat`,
 * which plugins build against): one definition, re-exported here with the app's stored item
 * in the inputs. The requests and the start response are the app's API.
 */
import type { BotSettings, BotTheme, Item } from '../bot/types.js'
import type {
  ChatInput as SdkChatInput,
  ChatReply as SdkChatReply,
  TextBubbleContentFormat,
} from '../../../packages/sdk/src/chat.js'

export type {
  TextBubbleContentFormat,
  RichTextNode,
  TextMessageContent,
  TextMessage,
  ImageMessage,
  VideoProvider,
  VideoMessage,
  AudioMessage,
  EmbedMessage,
  ChatReplyMessage as ChatMessage,
  ClientSideAction,
  ChatLog,
} from '../../../packages/sdk/src/chat.js'
export { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '../../../packages/sdk/src/chat.js'

/** The input the chat asks, its items as the app stores them (picture, title, conditions). */
export type ChatInput = SdkChatInput<Item>

export type ChatReply = SdkChatReply<Item>

/** POST /api/v1/sessions/{sessionId}/timeout: the question whose reply timer fired. */
export interface TimeoutChatRequest {
  blockId?: string
  textBubbleContentFormat?: TextBubbleContentFormat
}

/** Where a chat comes from: the web (viewer, embeds, API clients) or a messaging channel. */
export type ChatSource = 'web' | 'messenger' | 'whatsapp' | 'telegram'

/** The visitor's location as the client knows it (else the country a proxy's header gives). */
export interface VisitorGeo {
  country?: string
  region?: string
  city?: string
  latitude?: number
  longitude?: number
}

export interface StartChatRequest {
  message?: string
  resultId?: string
  source?: ChatSource
  geo?: VisitorGeo
  isStreamEnabled?: boolean
  /** Create the session and return the first messages without counting a start. */
  isOnlyRegistering?: boolean
  prefilledVariables?: Record<string, unknown>
  textBubbleContentFormat?: TextBubbleContentFormat
  /**
   * For a bot in several languages: the language to chat in (else a prefilled `language`
   * variable, the Accept-Language header, the bot's default language).
   */
  language?: string
}

export interface PreviewStartChatRequest extends StartChatRequest {
  startFrom?: { type: 'group'; groupId: string } | { type: 'event'; eventId: string }
  /** The bot to run instead of the saved draft (an editor's unsaved state, a test tool's). */
  bot?: unknown
  /** The client's id for the new preview session (must be unused). */
  sessionId?: string
}

export interface StartChatResponse extends ChatReply {
  sessionId: string
  /** Absent in preview. */
  resultId?: string
  typebot: StartedBot
  /** The same as `typebot`, under the product's own name. */
  bot: StartedBot
  /** The visitor's location kept with the result (the request's `geo`, else the proxy's country). */
  geo?: VisitorGeo | null
}

export interface StartedBot {
  id: string
  theme: BotTheme
  settings: BotSettings
  publishedAt?: string | null
}

export type ContinueChatMessage =
  | string
  | { type: 'text'; text: string; attachedFileUrls?: string[] }
  | { type: 'audio'; url: string }

export interface ContinueChatRequest {
  message?: ContinueChatMessage
  textBubbleContentFormat?: TextBubbleContentFormat
}

export type ContinueChatResponse = ChatReply
