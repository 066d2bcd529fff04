import Credential from '#models/credential'
import { readCredentials } from '#services/credentials'
import { pluginRegistry } from '#services/plugin_registry'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { EmbeddingProvider } from '#sdk/ai'
import type { RunnerAi } from '#plugins/define_plugin'
import { aiPort } from '#services/ai/credits'
import type KnowledgeStore from '#models/knowledge_store'
import type { EmbeddingCredentialOption } from '#shared/knowledge'
import { credentialEgress } from '#services/egress'

/**
 * The embedder of a store: the `embeddings` export of the plugin whose credentials the
 * store names (docs/knowledge.md, "Hybrid search"). No credentials, no embedder: the store
 * is searched by keywords only.
 */
export interface StoreEmbedder {
  model: string
  batchSize: number
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>
}

async function providerOf(type: string) {
  const registry = await pluginRegistry()
  if (!registry.get(type)) return undefined
  const provider = await registry.exportOf<EmbeddingProvider>(type, 'embeddings')
  return provider && typeof provider.embed === 'function' ? provider : undefined
}

/** The workspace's credentials a store can embed with, for the store's settings. */
export async function embeddingCredentialsOf(
  workspaceId: string
): Promise<EmbeddingCredentialOption[]> {
  const rows = await Credential.query().where('workspace_id', workspaceId).orderBy('name')
  const options: EmbeddingCredentialOption[] = []
  for (const row of rows) {
    const provider = await providerOf(row.type)
    if (provider) {
      options.push({
        id: row.id,
        name: row.name,
        type: row.type,
        defaultModel: provider.defaultModel,
      })
    }
  }
  return options
}

/** True when `credentialsId` is credentials of the workspace whose plugin embeds. */
export async function isEmbeddingCredential(workspaceId: string, credentialsId: string) {
  const row = await Credential.find(credentialsId)
  return !!row && row.workspaceId === workspaceId && !!(await providerOf(row.type))
}

/** Rough tokens of texts (about four characters each), when a service reports no usage. */
export function estimateEmbeddingTokens(texts: string[]) {
  return texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0)
}

/** The AI-credit port embeddings of a store are charged to when no caller names one. */
export function storeAiPort(store: KnowledgeStore): RunnerAi {
  return aiPort({ ownerId: store.createdBy, workspaceId: store.workspaceId, source: 'knowledge' })
}

/**
 * The store's embedder. Every call is an AI call (docs/knowledge.md, "AI credits"): refused
 * when the owner has no credit left, and charged for the tokens the service counted (an
 * estimate when it says nothing) to `ai`: a block's owner for a lookup, else the store's
 * creator (indexing, the store page's search).
 */
export async function embedderOf(
  store: KnowledgeStore,
  ai: RunnerAi = storeAiPort(store)
): Promise<StoreEmbedder | null> {
  if (!store.embeddingCredentialsId) return null
  const record = await Credential.find(store.embeddingCredentialsId)
  if (!record || record.workspaceId !== store.workspaceId) return null
  const provider = await providerOf(record.type)
  if (!provider) return null
  const credentials = readCredentials(record) as Record<string, unknown>
  const http = createGuardedHttp({
    ...credentialEgress(),
    timeoutMs: 60_000,
  })
  const model = store.embeddingModel?.trim() || provider.defaultModel
  return {
    model,
    batchSize: Math.max(1, provider.batchSize ?? 64),
    async embed(texts, signal) {
      await ai.ensureCredits()
      let counted: number | undefined
      const vectors = await provider.embed({
        credentials,
        texts,
        model,
        http,
        signal,
        onUsage: (tokens) => (counted = tokens),
      })
      await ai.recordUsage({
        model,
        inputTokens: counted ?? estimateEmbeddingTokens(texts),
        outputTokens: 0,
      })
      return vectors
    },
  }
}
