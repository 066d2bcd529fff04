import type { Fetcher } from '#sdk/plugin'
import { type ChatModelConfig, type ChatModelFactory, modelNodeAlone } from '#sdk/ai'
import plugin, {
  BEDROCK_DEFAULT_REGION,
  BEDROCK_DEFAULT_RETRIES,
  BEDROCK_DEFAULT_TEMPERATURE,
  BEDROCK_MAX_RETRIES,
  BEDROCK_MODELS,
} from './index.js'
import { type BedrockEndpoint, converseTransport, runtimeUrl } from './lib/converse.js'

export function endpointOf(credentials: Record<string, unknown> | undefined): BedrockEndpoint {
  const text = (key: string) => String(credentials?.[key] ?? '').trim()
  return {
    region: text('region') || BEDROCK_DEFAULT_REGION,
    baseUrl: text('baseUrl') || undefined,
    credentials: {
      accessKeyId: text('accessKeyId'),
      secretAccessKey: text('secretAccessKey'),
      ...(text('sessionToken') ? { sessionToken: text('sessionToken') } : {}),
    },
  }
}

function bounded(value: unknown, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : undefined
}

/**
 * What an LLM agent borrows from this Model node: a transport signing Converse calls with
 * the node's access key, the model and its settings, and how often to retry.
 */
export const chatModel: ChatModelFactory = ({ credentials, options }) => {
  const endpoint = endpointOf(credentials)
  if (!endpoint.credentials.accessKeyId || !endpoint.credentials.secretAccessKey) {
    throw new Error('Amazon Bedrock: the access key ID and secret access key are required')
  }
  const model = typeof options?.model === 'string' ? options.model.trim() : ''
  if (!model) throw new Error('No model selected')
  const config: ChatModelConfig = {
    endpoint: { baseUrl: runtimeUrl(endpoint), apiKey: '', complete: converseTransport(endpoint) },
    model,
    temperature: bounded(options.temperature, 0, 2) ?? BEDROCK_DEFAULT_TEMPERATURE,
    retries: Math.round(
      bounded(options.maxRetries, 0, BEDROCK_MAX_RETRIES) ?? BEDROCK_DEFAULT_RETRIES
    ),
  }
  const topP = bounded(options.topP, 0, 1)
  if (topP !== undefined) config.topP = topP
  const maxTokens = bounded(options.maxTokens, 1, 32768)
  if (maxTokens !== undefined) config.maxTokens = Math.round(maxTokens)
  return config
}

/** On its own, the node only says where it belongs. */
export default { 'Chat model': modelNodeAlone }

/**
 * The models offered in the list. Listing what an account may use needs the Bedrock
 * control plane and another IAM permission, so the list is the known chat models; any id
 * or inference profile ARN may be typed instead.
 */
const models: Fetcher<typeof plugin> = async () =>
  BEDROCK_MODELS.map((id) => ({ value: id, label: id }))

export const fetchers = { models }
