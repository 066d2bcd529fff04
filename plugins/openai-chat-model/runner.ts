import { type ChatModelFactory, chatModelFactory, modelNodeAlone, modelsFetcher } from '#sdk/ai'
// The bot block's provider: same credentials, same endpoint rules.
import { provider } from '../openai/runner.js'

/** What the LLM agent asks its attached Model node for (app/plugins/ai/chat_model.ts). */
export const chatModel: ChatModelFactory = chatModelFactory(provider)

/** Run as a step of its own, the node only says where it belongs. */
export const run = modelNodeAlone

/** Chat models only: an agent cannot talk to speech or image models. */
export const fetchers = {
  models: modelsFetcher(provider, (models) => models.filter((model) => model.id.includes('gpt'))),
}
