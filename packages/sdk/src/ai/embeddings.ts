import type { HttpClient } from '../runner_types.js'
import { ensureOk } from './errors.js'
import { endpointHeaders, endpointUrl, type OpenAiEndpoint } from './openai_compatible.js'

/**
 * Text embeddings for knowledge stores (docs/knowledge.md, "Hybrid search"). A provider
 * plugin lends its credentials to stores by exporting `embeddings` from its runner.ts; the
 * core finds it with registry.exportOf, never by the plugin's id. Server only.
 */
export interface EmbeddingRequest {
  credentials: Record<string, unknown>
  texts: string[]
  model?: string | null
  http: HttpClient
  signal?: AbortSignal
  /** Told the tokens the service counted (its `usage`), for AI-credit accounting. */
  onUsage?(tokens: number): void
}

export interface EmbeddingProvider {
  /** The model a store uses when it names none. */
  defaultModel: string
  /** Texts sent per request. */
  batchSize?: number
  embed(request: EmbeddingRequest): Promise<number[][]>
}

/** An OpenAI-compatible `POST {baseUrl}/embeddings` ({ model, input: [...] } → data[].embedding). */
export function openAiCompatibleEmbeddings(options: {
  endpoint: (credentials: Record<string, unknown>) => OpenAiEndpoint
  defaultModel: string
  batchSize?: number
}): EmbeddingProvider {
  return {
    defaultModel: options.defaultModel,
    batchSize: options.batchSize ?? 64,
    async embed({ credentials, texts, model, http, signal, onUsage }) {
      if (texts.length === 0) return []
      const endpoint = options.endpoint(credentials)
      const response = await http.request(endpointUrl(endpoint, 'embeddings'), {
        method: 'POST',
        headers: endpointHeaders(endpoint),
        body: JSON.stringify({ model: model || options.defaultModel, input: texts }),
        timeoutMs: 60_000,
        signal,
      })
      await ensureOk(response)
      const body = (await response.json()) as {
        data?: { index?: number; embedding?: unknown }[]
        usage?: { prompt_tokens?: number; total_tokens?: number }
      }
      const tokens = body?.usage?.prompt_tokens ?? body?.usage?.total_tokens
      if (typeof tokens === 'number' && Number.isFinite(tokens)) onUsage?.(tokens)
      const data = Array.isArray(body?.data) ? body.data : []
      const vectors: number[][] = new Array(texts.length)
      data.forEach((item, position) => {
        const index = typeof item.index === 'number' ? item.index : position
        if (Array.isArray(item.embedding)) vectors[index] = item.embedding.map(Number)
      })
      for (let index = 0; index < texts.length; index++) {
        if (!vectors[index]?.length) {
          throw new Error(`The embedding service returned no vector for text ${index + 1}`)
        }
      }
      return vectors
    },
  }
}
