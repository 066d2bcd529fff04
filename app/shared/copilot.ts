/**
 * The AI copilot's conversation as the server keeps it and the editors show it
 * (docs/copilot.md). Shared by both sides.
 */

export type CopilotDocumentType = 'workflow' | 'bot'
export type CopilotMessageRole = 'USER' | 'ASSISTANT'
export type CopilotMessageType = 'TEXT' | 'SUGGESTION'

/** What one answer cost: tokens over every round with the model, and AI credits. */
export interface CopilotUsage {
  inputTokens?: number
  outputTokens?: number
  credits?: number
  /** SUGGESTION messages: the replies offered as buttons. */
  suggestions?: string[]
}

export interface CopilotMessageDto {
  id: number
  role: CopilotMessageRole
  type: CopilotMessageType
  content: string
  timestamp: string
  versionId: string | null
  /** The version it made, named as the history names it ('Version 3'). */
  versionName: string | null
  showVersionCard: boolean
  usage: CopilotUsage | null
}

/** An AI provider credential the copilot may talk through. */
export interface CopilotCredentialDto {
  id: string
  name: string
  type: string
  /** The provider's name as the catalogue gives it ('OpenAI'). */
  provider: string
  /** The model the copilot asks for with it (the provider's default chat model). */
  model: string
}

export interface CopilotStateDto {
  messages: CopilotMessageDto[]
  /** Answered messages against userCopilotLimit (-1: none). */
  usage: { totalMessages: number; messagesLimit: number }
  credentials: CopilotCredentialDto[]
}

/** What a sent message answers: the conversation, and the document when the copilot changed it. */
export interface CopilotReplyDto<Document = unknown> extends CopilotStateDto {
  isUpdated: boolean
  document: Document | null
  /**
   * In a shared draft, the copilot's change as the Yjs update every open editor receives
   * (base64): the editor that asked applies it as the copilot's, not as its person's edit.
   */
  coeditUpdate?: string | null
}

/** The longest message a builder may send. */
export const COPILOT_MESSAGE_MAX_LENGTH = 4000

/** What the copilot's chat says in these cases (the interface's wording, kept exact). */
export const COPILOT_TEXTS = {
  manualUpdate: 'Workflow manually updated by user.',
  failure: 'Sorry, I encountered an error while processing your request. Please try again.',
  limitExceeded: 'Your copilot chat limits are exceeded.',
  sendFailed: 'Could not send message',
  usageFailed: 'Could not update copilot usage',
} as const

/** The bot editor's note, in the same words as the workflow's (our wording). */
export const BOT_MANUAL_UPDATE_NOTE = 'Bot manually updated by user.'

/** A message is sent only when it has something besides white space: a blank message would cost a reply for nothing. */
export function isSendable(text: string): boolean {
  return text.trim().length > 0
}
