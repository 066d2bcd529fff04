/**
 * The option blocks AI plugins share (chat completion, model node, agent, tools, messages):
 * `#sdk/ai_fields` in the app, part of `@flowcraft/sdk/ai` in the package. Browser-safe,
 * like the manifest side of the plugin contract.
 */
export * from './ai/chat_fields.js'
export * from './ai/agent_fields.js'
export * from './ai/tool_fields.js'
export * from './ai/message_fields.js'
