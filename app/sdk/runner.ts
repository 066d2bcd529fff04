/**
 * `#sdk/runner`: what a plugin's server-side files (runner.ts, credentials.ts) may use
 * beyond `#sdk/plugin`: workflow node types, variable substitution, JSON paths, event
 * trigger types, the credentials test context and the chat message types.
 */
// Everything of the package's @flowcraft/sdk/runner, plus the app's chat message types.
export * from '../../packages/sdk/src/runner.js'
export * from '../shared/chat/rich_text.js'
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
  ChatMessage as ChatReplyMessage,
  ChatInput,
  ClientSideAction,
  ChatLog,
  ChatReply,
} from '../shared/chat/types.js'
export { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '../shared/chat/types.js'
