/**
 * `#sdk/ai`: the provider plumbing AI plugins share: OpenAI-compatible and Anthropic
 * clients, streaming, tool calls, agents, chat models for workflow agents, error mapping.
 * Server only.
 */
export * from '../plugins/ai/errors.js'
export * from '../plugins/ai/chat_completion_runner.js'
export * from '../plugins/ai/chat_tools.js'
export * from '../plugins/ai/messages.js'
export * from '../plugins/ai/agent.js'
export * from '../plugins/ai/provider_runs.js'
export * from '../plugins/ai/chat_model.js'
export * from '../plugins/ai/sse.js'
export * from '../plugins/ai/function_tools.js'
export * from '../plugins/ai/openai_compatible.js'
export * from '../plugins/ai/anthropic_messages.js'
export * from '../plugins/ai/embeddings.js'
// Both clients name their tool-round bound the same; the OpenAI-compatible one is the default.
export { MAX_TOOL_ROUNDS } from '../plugins/ai/openai_compatible.js'
export { MAX_TOOL_ROUNDS as ANTHROPIC_MAX_TOOL_ROUNDS } from '../plugins/ai/anthropic_messages.js'
