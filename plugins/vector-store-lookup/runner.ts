import type { Fetcher } from '#sdk/plugin'
import type { SurfaceRunner } from '#sdk/runner'
import { knowledgeStoresOf, lookupFailure, searchKnowledge } from '#sdk/knowledge'
import plugin, { DEFAULT_NUMBER_OF_DOCUMENTS } from './index.js'

type Plugin = typeof plugin

function countOf(value: unknown) {
  const number = typeof value === 'string' ? Number(value.trim()) : Number(value)
  return Number.isFinite(number) && number >= 1
    ? Math.min(50, Math.floor(number))
    : DEFAULT_NUMBER_OF_DOCUMENTS
}

/**
 * Searches the store and keeps the passages. A missing store or an empty query is an error
 * log (a workflow node fails on it; a bot goes on); no match saves an empty text.
 */
export const run: SurfaceRunner<Plugin> = async ({
  surface,
  options,
  workspaceId,
  variables,
  logger,
  signal,
  ai,
}) => {
  const query = String(options.query ?? '').trim()
  const found = await searchKnowledge({
    workspaceId: workspaceId ?? '',
    storeId: String(options.storeId ?? ''),
    query,
    limit: countOf(options.numberOfDocuments),
    signal,
    ai,
  })
  if (!found.ok) {
    return void logger.error(`Vector store lookup: ${lookupFailure(found)}`)
  }
  const text = found.hits.map((hit) => hit.content).join('\n\n')
  if (options.responseVariableId) variables.set(options.responseVariableId, text)
  const documents = found.hits.map((hit) => ({
    content: hit.content,
    source: hit.sourceName,
    sourceId: hit.sourceId,
    score: hit.score,
  }))
  if (found.warning) logger.info(found.warning)
  if (documents.length === 0) logger.info(`No passage of "${found.storeName}" matches the query`)
  else {
    logger.success(`Found ${documents.length} passage(s) in "${found.storeName}"`, {
      mode: found.mode,
      sources: [...new Set(documents.map((document) => document.source))],
    })
  }
  if (surface === 'workflow') return { output: { text, documents, mode: found.mode } }
}

/** The stores of the block's workspace, for the Knowledge store field. */
export const fetchers: Record<string, Fetcher<Plugin>> = {
  stores: async ({ workspaceId }) => (workspaceId ? knowledgeStoresOf(workspaceId) : []),
}
