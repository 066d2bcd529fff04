import { type ChatModelFactory, chatModelFactory, modelNodeAlone } from '#sdk/ai'
// The bot block's provider: same credentials, same endpoint rules.
import { provider } from '../groq/runner.js'

/** What the LLM agent asks its attached Model node for (app/plugins/ai/chat_model.ts). */
export const chatModel: ChatModelFactory = chatModelFactory(provider)

/** Run as a step of its own, the node only says where it belongs. */
export const run = modelNodeAlone

/** The block's list: Groq's models sorted by creation. */
export { fetchers } from '../groq/runner.js'
