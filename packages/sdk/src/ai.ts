/**
 * `@flowcraft/sdk/ai` (server; `#sdk/ai` in the app): the provider plumbing AI plugins share.
 * OpenAI-compatible and Anthropic clients, streaming, tool calls, agents, embeddings, the
 * "Create chat completion" action, chat models for workflow agents and error mapping. Calls
 * go through the runner context's guarded client; errors carry the provider's status and
 * message. Credits: call `context.ai.ensureCredits()` before and `context.ai.recordUsage()`
 * after each call. A Model node lends the LLM agent a `chatModel` (ChatModelFactory); a Tool
 * node lends `agentTools` (AgentToolFactory). Knowledge stores are the app's: their tool
 * reaches it through the port (see ai/knowledge.ts).
 */

export type { AiUsage, RunnerAi } from './runner_types.js'
export * from './ai/types.js'
export * from './ai/knowledge.js'
export * from './ai/errors.js'
export * from './ai/sse.js'
export * from './ai/messages.js'
export * from './ai/function_tools.js'
export * from './ai/provider_runs.js'
export * from './ai/openai_compatible.js'
export * from './ai/anthropic_messages.js'
export * from './ai/embeddings.js'
export * from './ai/chat_tools.js'
export * from './ai/chat_completion_runner.js'
export * from './ai/agent.js'
export * from './ai_fields.js'
// Both clients name their tool-round bound the same; the OpenAI-compatible one is the default.
export { MAX_TOOL_ROUNDS } from './ai/openai_compatible.js'
export { MAX_TOOL_ROUNDS as ANTHROPIC_MAX_TOOL_ROUNDS } from './ai/anthropic_messages.js'
