import type { Fetcher } from '#sdk/plugin'
import type { SurfaceRunner } from '#sdk/runner'
import {
  CHUNK_TEXT_FIELD,
  indexHost,
  listIndexes,
  listNamespaces,
  pineconeAccountOf,
  searchRecords,
} from './api.js'
import plugin, { PINECONE_DEFAULT_TOP_K } from './index.js'

/**
 * Finds the index's host, searches the namespace with the text (fields `category` and
 * `chunk_text`), keeps the hits scoring at least `score` and joins their `chunk_text` with
 * blank lines. A bot saves that text in each mapped variable, or logs
 * 'Error: No matches found in the response for variable {id}' for each when nothing matched;
 * a workflow node outputs `{ text, matches }`. A Pinecone failure is the block's error log
 * (it fails a workflow node).
 */
export const run: SurfaceRunner<typeof plugin> = async ({
  surface,
  options,
  credentials,
  http,
  variables,
  logger,
  signal,
}) => {
  const account = pineconeAccountOf(credentials)
  const text = options.text?.trim() ?? ''
  if (!text) return logger.error('Pinecone: the search text is empty')
  const indexName = options.indexName?.trim() ?? ''
  if (!indexName) return logger.error('Pinecone: no index chosen')
  const minScore = Number(options.score)
  const topK = Math.min(
    Math.max(Math.round(Number(options.topK) || PINECONE_DEFAULT_TOP_K), 1),
    100
  )
  let hits
  try {
    const host = await indexHost(http, account, indexName, signal)
    hits = await searchRecords(
      http,
      account,
      {
        host,
        namespace: options.namespace ?? '',
        text,
        topK,
        fields: ['category', CHUNK_TEXT_FIELD],
      },
      signal
    )
  } catch (error) {
    return logger.error((error as Error).message)
  }
  const matches = hits.filter((hit) => !Number.isFinite(minScore) || hit.score >= minScore)
  const joined = matches
    .map((hit) => hit.fields[CHUNK_TEXT_FIELD])
    .filter((chunk): chunk is string => typeof chunk === 'string' && chunk.trim() !== '')
    .join('\n\n')

  for (const mapping of options.responseMapping ?? []) {
    if (!mapping.variableId) continue
    if (!joined) {
      logger.error(`Error: No matches found in the response for variable ${mapping.variableId}`)
      continue
    }
    variables.set(mapping.variableId, joined)
  }
  if (joined) logger.success(`Pinecone: ${matches.length} match${matches.length === 1 ? '' : 'es'}`)
  if (surface === 'workflow') {
    if (!joined && (options.responseMapping ?? []).length === 0) {
      logger.info('Pinecone: no matches')
    }
    return {
      output: {
        text: joined,
        matches: matches.map((hit) => ({ id: hit.id, score: hit.score, ...hit.fields })),
      },
    }
  }
}

/** The account's indexes, for the Index field. */
const indexes: Fetcher<typeof plugin> = async ({ credentials, http, signal }) => {
  const list = await listIndexes(http, pineconeAccountOf(credentials), signal)
  return list.map((index) => ({ value: index.name, label: index.name }))
}

/** The namespaces of the chosen index (from its stats), with their record counts. */
const namespaces: Fetcher<typeof plugin> = async ({ credentials, options, http, signal }) => {
  const account = pineconeAccountOf(credentials)
  if (!options.indexName) return []
  const host = await indexHost(http, account, options.indexName, signal)
  const list = await listNamespaces(http, account, host, signal)
  return list.map((namespace) => ({
    value: namespace.name,
    label: `${namespace.name || '(default)'} (${namespace.recordCount} records)`,
  }))
}

export const fetchers = { indexes, namespaces }

export { vectorStore } from './vector_store.js'
