import { field } from '../fields.js'
import { functionToolsField } from './tool_fields.js'
import { chatMessagesField } from './message_fields.js'

export { chatMessagesField }

/**
 * The stores a chat block lets its model search through the "search_knowledge" tool
 * (docs/knowledge.md, "From bots and workflows"); the block's response mapping offers
 * 'Knowledge sources' with them. Needs the runner module's `knowledgeStores` fetcher.
 */
export function knowledgeFields() {
  return {
    knowledgeStores: field.list(
      {
        storeId: field.string({
          label: 'Knowledge store',
          optionsFrom: { fetcher: 'knowledgeStores' },
        }),
      },
      {
        label: 'Knowledge stores',
        itemLabel: 'Store',
        helperText:
          'Stores of the Vectors page the model may search (tool "search_knowledge"); it gets passages with their sources.',
      }
    ),
    knowledgeDocuments: field.number({
      label: 'Passages per search',
      min: 1,
      max: 20,
      step: 1,
      defaultValue: 3,
    }),
  }
}

/**
 * The options of "Create chat completion" shared by the OpenAI-compatible providers
 * (model, messages with Dialogue entries, tools, temperature, response
 * mapping Message content / Total tokens). Browser-safe: manifests import it.
 */
export function chatCompletionFields(input: { defaultModel?: string } = {}) {
  return {
    model: field.string({
      label: 'Model',
      ...(input.defaultModel ? { defaultValue: input.defaultModel } : {}),
      optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
    }),
    messages: chatMessagesField(),
    tools: functionToolsField(),
    ...knowledgeFields(),
    temperature: field.number({
      label: 'Temperature',
      min: 0,
      max: 2,
      step: 0.1,
      defaultValue: 1,
      allowVariables: true,
    }),
    responseMapping: field.responseMapping({
      label: 'Save the response',
      from: ['Message content', 'Total tokens', 'Knowledge sources'],
    }),
  }
}

/** The action a chat provider lends workflow LLM agents as a Model node. */
export const MODEL_NODE_ACTION = 'Chat model'

/**
 * A chat provider's workflow Model node, as an action of the provider's plugin kept to
 * workflows: the agent plugged to it borrows the plugin's credentials (its credentialsId)
 * and these settings (temperature 0 to 2,
 * topP 0 to 1, maxTokens 1 to 32768). `fetcher` names the runner's fetcher of chat models.
 */
export function modelNodeAction(input: { defaultModel: string; fetcher?: string }) {
  return {
    label: MODEL_NODE_ACTION,
    description: "The language model of an LLM agent: plug it into the agent's Model slot",
    surfaces: ['workflow'] as ['workflow'],
    options: {
      model: field.string({
        label: 'Model',
        defaultValue: input.defaultModel,
        required: true,
        optionsFrom: { fetcher: input.fetcher ?? 'models', dependsOn: ['credentialsId'] },
      }),
      temperature: field.number({ label: 'Temperature', min: 0, max: 2, step: 0.1 }),
      topP: field.number({ label: 'Top P', min: 0, max: 1, step: 0.05 }),
      maxTokens: field.number({ label: 'Maximum tokens', min: 1, max: 32768, step: 1 }),
    },
  }
}
