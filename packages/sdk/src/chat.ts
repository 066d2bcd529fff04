/**
 * `@flowcraft/sdk/chat`: the chat's messages, inputs, client-side actions and replies, as a
 * bot's chat sends them (startChat / continueChat), and the conversions of the text bubble's
 * rich text. The app's engine, its viewer and embed, and the plugins of bubbles share these.
 * Browser-safe: types and pure functions only, no DOM, no Node modules.
 *
 * Field names follow the open format of this ecosystem so that existing embeds and API
 * clients keep working.
 */
export * from './chat_rich_text.js'

export type TextBubbleContentFormat = 'richText' | 'markdown'

/** A Slate-like rich text node, as the editor stores text bubbles. */
export interface RichTextNode {
  type?: string
  text?: string
  bold?: boolean
  italic?: boolean
  underline?: boolean
  url?: string
  children?: RichTextNode[]
  [key: string]: unknown
}

// ---------------------------------------------------------------------------
// Messages (bubbles)
// ---------------------------------------------------------------------------

export type TextMessageContent =
  { type: 'richText'; richText: RichTextNode[] } | { type: 'markdown'; markdown: string }

export interface TextMessage {
  id: string
  type: 'text'
  content: TextMessageContent
}

export interface ImageMessage {
  id: string
  type: 'image'
  content: { url?: string; clickLink?: { url?: string; alt?: string } }
}

export type VideoProvider = 'url' | 'youtube' | 'vimeo' | 'tiktok' | 'gumlet'

export interface VideoMessage {
  id: string
  type: 'video'
  content: {
    url?: string
    /** The provider's video id, when `type` is not 'url'. */
    id?: string
    type?: VideoProvider
    height?: number | string
    aspectRatio?: string
    maxWidth?: string
    queryParamsStr?: string
    areControlsDisplayed?: boolean
    isAutoplayEnabled?: boolean
  }
}

export interface AudioMessage {
  id: string
  type: 'audio'
  content: { url?: string; isAutoplayEnabled?: boolean }
}

export interface EmbedMessage {
  id: string
  type: 'embed'
  content: {
    url?: string
    height?: number | string
    /** The chat waits for this window message before it goes on. */
    waitForEvent?: { isEnabled?: boolean; name?: string; saveDataInVariableId?: string }
  }
}

/**
 * A message of a chat reply (named apart from the AI kit's `ChatMessage` and the runner's
 * loose one: this is the bubble the visitor sees).
 */
export type ChatReplyMessage =
  TextMessage | ImageMessage | VideoMessage | AudioMessage | EmbedMessage

// ---------------------------------------------------------------------------
// Input (the block the visitor answers)
// ---------------------------------------------------------------------------

/**
 * The input block with its options resolved: {{variables}} substituted, choice items
 * filtered by their display conditions or built from the dynamic variable.
 */
/**
 * What the chat needs of an input's item (a choice's button, a picture choice): the app's
 * stored item has more fields, and is passed as ChatInput's type parameter where it reads them.
 */
export interface ChatItem {
  id: string
  outgoingEdgeId?: string
  /** The button's text for a choice. */
  content?: unknown
  [key: string]: unknown
}

export interface ChatInput<Item extends ChatItem = ChatItem> {
  id: string
  /** The block type: 'text input', 'choice input', ... */
  type: string
  options: Record<string, unknown>
  items?: Item[]
  /** The variable's current value, when input prefill is on. */
  prefilledValue?: string
  /** Values computed at run time that are not options (e.g. a payment's client secret). */
  runtimeOptions?: Record<string, unknown>
  /**
   * The question's reply timeout: with no answer `seconds` after it is shown, the client
   * calls `POST /api/v1/sessions/{sessionId}/timeout` and shows the "No reply" path's reply.
   */
  timeout?: { seconds: number }
}

// ---------------------------------------------------------------------------
// Client-side actions
// ---------------------------------------------------------------------------

interface ClientSideActionBase {
  /** Run the action after this bubble is shown (otherwise before the messages). */
  lastBubbleBlockId?: string
  /**
   * The flow is paused on this action: once it is done the client calls continueChat
   * (with the action's result as message, or no message).
   */
  expectsDedicatedReply?: boolean
}

export type ClientSideAction = ClientSideActionBase &
  (
    | { type: 'redirect'; redirect: { url?: string; isNewTab?: boolean } }
    | { type: 'wait'; wait: { secondsToWaitFor: number } }
    | {
        type: 'scriptToExecute'
        scriptToExecute: { content: string; args: { id: string; value: unknown }[] }
      }
    | {
        /** Runs code in the browser and sends its result back as the next message. */
        type: 'setVariable'
        setVariable: {
          scriptToExecute: { content: string; args: { id: string; value: unknown }[] }
        }
      }
    | {
        /** An event for the page's Google Analytics (gtag), loaded with trackingId if absent. */
        type: 'googleAnalytics'
        googleAnalytics: {
          trackingId?: string
          category?: string
          action?: string
          label?: string
          value?: number | string
          sendTo?: string
        }
      }
    | {
        /** A tracking pixel event (fbq): a standard event, or `name` when eventType is Custom. */
        type: 'pixel'
        pixel: {
          pixelId?: string
          eventType?: string
          name?: string
          params?: { key?: string; value?: unknown }[]
        }
      }
    | {
        /**
         * Shows or closes the Chatwoot widget on the visitor's page. Our viewer and embed
         * read the fields; `scriptToExecute` does the same for clients that run scripts.
         */
        type: 'chatwoot'
        chatwoot: {
          task: 'Show widget' | 'Close widget'
          baseUrl?: string
          websiteToken?: string
          user?: {
            id?: string
            email?: string
            name?: string
            avatarUrl?: string
            phoneNumber?: string
          }
          scriptToExecute: { content: string; args: unknown[] }
        }
      }
    | {
        /**
         * A Cal.com booking widget shown in the chat (the flow is paused on it): the
         * client answers with the booked date once the visitor books.
         */
        type: 'calBooking'
        calBooking: {
          /** The Cal.com origin (its cloud or a self-hosted install). */
          baseUrl: string
          /** The booking page's path, e.g. "ada/30min". */
          link: string
          layout: 'month_view' | 'week_view' | 'column_view'
          prefill: { name?: string; email?: string; notes?: string; phone?: string }
        }
      }
    | { type: 'webhookToExecute'; webhookToExecute: Record<string, unknown> }
    | { type: 'listenForWebhook'; listenForWebhook: { url: string } }
    | { type: 'stream'; stream: true }
    | {
        /**
         * Sent first in a start reply when the bot's settings ask something of the page it
         * is shown on (its Google Tag Manager container): the embed applies it to the host
         * page; the public bot page has it already.
         */
        type: 'injectStartProps'
        injectStartProps: { gtmId?: string }
      }
  )

// ---------------------------------------------------------------------------
// Logs, progress, replies
// ---------------------------------------------------------------------------

export interface ChatLog {
  status: 'success' | 'info' | 'error'
  description: string
  details?: unknown
}

export interface ChatReply<Item extends ChatItem = ChatItem> {
  messages: ChatReplyMessage[]
  input?: ChatInput<Item>
  clientSideActions?: ClientSideAction[]
  logs?: ChatLog[]
  dynamicTheme?: { hostAvatarUrl?: string; guestAvatarUrl?: string }
  /** 0 to 100, when the theme shows a progress bar. */
  progress?: number
  /** Set (and messages empty) when the workspace used its chats of the month. */
  chatLimitExceededError?: string
  aiCreditLimitExceededError?: string
}

/**
 * The reply's aiCreditLimitExceededError (its text is not shown; ours says what
 * happened and what the owner can do, without exposing billing details to the visitor).
 */
export const AI_CREDIT_LIMIT_EXCEEDED_TEXT =
  "This bot's AI credits are used up, so it cannot answer right now. Please come back later."
