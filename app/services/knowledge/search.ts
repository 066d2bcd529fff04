import db from '@adonisjs/lucid/services/db'
import type KnowledgeStore from '#models/knowledge_store'
import type { KnowledgeHit, KnowledgeSearchResult, SearchCapabilities } from '#shared/knowledge'
import { embedderOf, type StoreEmbedder } from './embeddings.js'
import { cosine, fromBlob, toBlob } from './vectors.js'

/**
 * Search in a store (docs/knowledge.md): keywords always (FTS5 BM25 on SQLite, tsvector on
 * PostgreSQL, FULLTEXT on MySQL/MariaDB), fused with vector similarity by reciprocal rank
 * when the store embeds (sqlite-vec on SQLite, cosine in JavaScript elsewhere).
 */

type Dialect = 'sqlite' | 'postgres' | 'mysql'

function dialectOf(): Dialect {
  const name = db.connection().dialect.name
  if (name === 'postgres') return 'postgres'
  if (name === 'mysql') return 'mysql'
  return 'sqlite'
}

/** Rows of a raw query, whatever the driver returns. */
function rowsOf(result: any): any[] {
  if (Array.isArray(result)) return Array.isArray(result[0]) ? result[0] : result
  return result?.rows ?? []
}

let sqliteVec: Promise<boolean> | null = null

/** Whether sqlite-vec is loaded into the connections (config/database.ts loads it). */
export function hasSqliteVec(): Promise<boolean> {
  if (dialectOf() !== 'sqlite') return Promise.resolve(false)
  sqliteVec ??= db
    .rawQuery('select vec_version() as version')
    .then(() => true)
    .catch(() => false)
  return sqliteVec
}

let pgvector: Promise<boolean> | null = null

/** pgvector is reported when the extension is installed; search uses it only then. */
export function hasPgvector(): Promise<boolean> {
  if (dialectOf() !== 'postgres') return Promise.resolve(false)
  pgvector ??= db
    .rawQuery(`select 1 from pg_extension where extname = 'vector'`)
    .then((result) => rowsOf(result).length > 0)
    .catch(() => false)
  return pgvector
}

export async function searchCapabilities(): Promise<SearchCapabilities> {
  const dialect = dialectOf()
  if (dialect === 'sqlite') {
    return { keyword: 'fts5', vector: (await hasSqliteVec()) ? 'sqlite-vec' : 'js' }
  }
  if (dialect === 'postgres') {
    return { keyword: 'postgres', vector: (await hasPgvector()) ? 'pgvector' : 'js' }
  }
  return { keyword: 'fulltext', vector: 'js' }
}

/** The words of a query: letters and digits only, so none can change the match syntax. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)].slice(0, 32)
}

interface Ranked {
  id: number
  score: number
}

async function keywordRanks(storeId: string, terms: string[], limit: number): Promise<Ranked[]> {
  if (terms.length === 0) return []
  const dialect = dialectOf()
  if (dialect === 'sqlite') {
    const match = terms.map((term) => `"${term}"`).join(' OR ')
    const rows = rowsOf(
      await db.rawQuery(
        `select c.id as id, -bm25(knowledge_chunks_fts) as score
         from knowledge_chunks_fts join knowledge_chunks c on c.id = knowledge_chunks_fts.rowid
         where knowledge_chunks_fts match ? and c.store_id = ?
         order by bm25(knowledge_chunks_fts) limit ?`,
        [match, storeId, limit]
      )
    )
    return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }))
  }
  if (dialect === 'postgres') {
    const rows = rowsOf(
      await db.rawQuery(
        `select id, ts_rank_cd(to_tsvector('english', content), q) as score
         from knowledge_chunks, to_tsquery('english', ?) q
         where store_id = ? and to_tsvector('english', content) @@ q
         order by score desc, id limit ?`,
        [terms.join(' | '), storeId, limit]
      )
    )
    return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }))
  }
  const text = terms.join(' ')
  let rows: any[] = []
  try {
    rows = rowsOf(
      await db.rawQuery(
        `select id, match(content) against (? in natural language mode) as score
         from knowledge_chunks
         where store_id = ? and match(content) against (? in natural language mode)
         order by score desc, id limit ?`,
        [text, storeId, text, limit]
      )
    )
  } catch {
    rows = []
  }
  if (rows.length > 0) return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }))
  // FULLTEXT skips short words and stop words; count the terms a chunk contains instead.
  const cases = terms.map(() => 'case when lower(content) like ? then 1 else 0 end').join(' + ')
  const likes = terms.map((term) => `%${term}%`)
  rows = rowsOf(
    await db.rawQuery(
      `select id, (${cases}) as score from knowledge_chunks
       where store_id = ? and (${terms.map(() => 'lower(content) like ?').join(' or ')})
       order by score desc, id limit ?`,
      [...likes, storeId, ...likes, limit]
    )
  )
  return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }))
}

async function vectorRanks(storeId: string, vector: number[], limit: number): Promise<Ranked[]> {
  if (await hasSqliteVec()) {
    const rows = rowsOf(
      await db.rawQuery(
        `select id, vec_distance_cosine(embedding, ?) as distance from knowledge_chunks
         where store_id = ? and embedding is not null and length(embedding) = ?
         order by distance limit ?`,
        [toBlob(vector), storeId, vector.length * 4, limit]
      )
    )
    return rows.map((row) => ({ id: Number(row.id), score: 1 - Number(row.distance) }))
  }
  // Every other database: cosine over the stored vectors, in this process.
  const rows = await db
    .from('knowledge_chunks')
    .where('store_id', storeId)
    .whereNotNull('embedding')
    .select('id', 'embedding')
  const ranked: Ranked[] = []
  for (const row of rows) {
    const stored = fromBlob(row.embedding)
    if (stored && stored.length === vector.length) {
      ranked.push({ id: Number(row.id), score: cosine(vector, stored) })
    }
  }
  return ranked.sort((a, b) => b.score - a.score).slice(0, limit)
}

/** Reciprocal rank fusion's constant: ranks matter, raw scores of two kinds do not mix. */
const RRF_K = 60

export interface SearchOptions {
  limit: number
  signal?: AbortSignal
  /** Given by callers that already have it (benchmarks); otherwise read from the store. */
  embedder?: StoreEmbedder | null
}

export async function searchStore(
  store: KnowledgeStore,
  query: string,
  options: SearchOptions
): Promise<KnowledgeSearchResult> {
  const limit = Math.max(1, options.limit)
  const depth = Math.max(limit * 4, 20)
  const terms = queryTerms(query)
  const keyword = await keywordRanks(store.id, terms, depth)

  const embedder = options.embedder === undefined ? await embedderOf(store) : options.embedder
  let vector: Ranked[] = []
  let warning: string | undefined
  if (embedder && query.trim()) {
    try {
      const [queryVector] = await embedder.embed([query.trim()], options.signal)
      vector = await vectorRanks(store.id, queryVector, depth)
    } catch (error) {
      warning = `Vector search failed, keyword results only: ${(error as Error).message}`
    }
  }

  const fused = new Map<number, { score: number; keyword: number | null; vector: number | null }>()
  keyword.forEach((hit, rank) => {
    fused.set(hit.id, { score: 1 / (RRF_K + rank + 1), keyword: hit.score, vector: null })
  })
  vector.forEach((hit, rank) => {
    const entry = fused.get(hit.id) ?? { score: 0, keyword: null, vector: null }
    entry.score += 1 / (RRF_K + rank + 1)
    entry.vector = hit.score
    fused.set(hit.id, entry)
  })
  const hybrid = !!embedder && !warning
  const ordered = [...fused.entries()]
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) =>
      hybrid ? b.score - a.score || a.id - b.id : (b.keyword ?? 0) - (a.keyword ?? 0) || a.id - b.id
    )
    .slice(0, limit)
  if (ordered.length === 0) return { mode: hybrid ? 'hybrid' : 'keyword', hits: [], warning }

  const rows = await db
    .from('knowledge_chunks')
    .join('knowledge_sources', 'knowledge_sources.id', 'knowledge_chunks.source_id')
    .whereIn(
      'knowledge_chunks.id',
      ordered.map((entry) => entry.id)
    )
    .select(
      'knowledge_chunks.id as id',
      'knowledge_chunks.source_id as sourceId',
      'knowledge_chunks.position as position',
      'knowledge_chunks.content as content',
      'knowledge_sources.name as sourceName'
    )
  const byId = new Map(rows.map((row) => [Number(row.id), row]))
  const hits: KnowledgeHit[] = []
  for (const entry of ordered) {
    const row = byId.get(entry.id)
    if (!row) continue
    hits.push({
      chunkId: entry.id,
      sourceId: row.sourceId,
      sourceName: row.sourceName,
      position: Number(row.position),
      content: row.content,
      score: hybrid ? round(entry.score) : round(entry.keyword ?? 0),
      keywordScore: entry.keyword === null ? null : round(entry.keyword),
      vectorScore: entry.vector === null ? null : round(entry.vector),
    })
  }
  return { mode: hybrid ? 'hybrid' : 'keyword', hits, warning }
}

function round(value: number) {
  return Math.round(value * 10_000) / 10_000
}
