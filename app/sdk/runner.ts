/**
 * `#sdk/runner`: what a plugin's server-side files (runner.ts, credentials.ts) may use
 * beyond `#sdk/plugin`: workflow node types, variable substitution, JSON paths, event
 * trigger types, the credentials test context and the chat message types.
 */
export type {
  WorkflowNodeContext,
  AttachedNode,
  WaitRequest,
  WorkflowNodeResult,
  WorkflowRunnerContext,
  WorkflowRunner,
  SurfaceRunner,
} from '../engine/workflow/node_context.js'
export * from '../plugins/json_path.js'
export * from '../plugins/substitute.js'
export * from '../plugins/event_trigger.js'
export type { CredentialsTestContext, CredentialsModule } from '../services/plugin_registry.js'
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
