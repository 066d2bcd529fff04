/**
 * `#sdk/ai_fields`: the option blocks AI plugins share (chat completion, model node, agent,
 * tools, messages). Browser-safe, like `#sdk/plugin`.
 */
export * from '../plugins/ai/chat_fields.js'
export * from '../plugins/ai/agent_fields.js'
export * from '../plugins/ai/tool_fields.js'
export * from '../plugins/ai/message_fields.js'
