import db from '@adonisjs/lucid/services/db'
import type KnowledgeStore from '#models/knowledge_store'
import type { KnowledgeHit, KnowledgeSearchResult, SearchCapabilities } from '#shared/knowledge'
import { embedderOf, type StoreEmbedder } from './embeddings.js'
import { createVectorTable, fromBlob, toBlob, vectorTableOf } from './vectors.js'
import {
  createPgvectorIndex,
  hasPgvectorColumn,
  PGVECTOR_COLUMN,
  pgvectorCastOf,
  toVectorLiteral,
} from './pgvector.js'

/**
 * Search in a store (docs/knowledge.md): keywords always (FTS5 BM25 on SQLite, tsvector on
 * PostgreSQL, FULLTEXT on MySQL/MariaDB), fused with vector similarity by reciprocal rank
 * when the store embeds (a KNN query on sqlite-vec's vec0 index on SQLite or on pgvector's
 * HNSW index on PostgreSQL with the extension, cosine over vectors cached in the process
 * elsewhere).
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

/**
 * Whether search and indexing use pgvector: the chunks have its column, which migration 0090
 * adds only when the `vector` extension is installed (docs/knowledge.md).
 */
export function usesPgvector(): Promise<boolean> {
  if (dialectOf() !== 'postgres') return Promise.resolve(false)
  pgvector ??= hasPgvectorColumn(db).catch(() => false)
  return pgvector
}

export async function searchCapabilities(): Promise<SearchCapabilities> {
  const dialect = dialectOf()
  if (dialect === 'sqlite') {
    return { keyword: 'fts5', vector: (await hasSqliteVec()) ? 'sqlite-vec' : 'js' }
  }
  if (dialect === 'postgres') {
    return { keyword: 'postgres', vector: (await usesPgvector()) ? 'pgvector' : 'js' }
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
    // Each match's store is read from a covering index of (id, store_id) (migration 0070),
    // not from its row: a chunk's row is about a page, so a common word read thousands.
    const match = terms.map((term) => `"${term}"`).join(' OR ')
    const rows = rowsOf(
      await db.rawQuery(
        `select c.id as id, -bm25(knowledge_chunks_fts) as score
         from knowledge_chunks_fts
         join knowledge_chunks c indexed by knowledge_chunks_id_store_id on c.id = knowledge_chunks_fts.rowid
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
        // content_tsv is stored (migration 0070) and kept in the row (0091): ranking reads it
        // without parsing or fetching from TOAST. ts_rank, not ts_rank_cd: the words' weights
        // are what an OR query ranks by, and the cover density cost 3x the time on the
        // queries that match a whole store (docs/benchmarks/knowledge.md).
        `select id, ts_rank(content_tsv, q) as score
         from knowledge_chunks, to_tsquery('english', ?) q
         where store_id = ? and content_tsv @@ q
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

/** Dimensions whose vec0 table this process has seen (docs/knowledge.md, "Search"). */
const indexedDimensions = new Set<number>()

/**
 * Makes sure the vec0 table of a dimension exists before chunks of that size are written
 * (indexing calls it): its trigger then indexes them as they are inserted. Nothing on other
 * databases or without sqlite-vec.
 */
export async function ensureVectorIndex(dimensions: number): Promise<boolean> {
  if (indexedDimensions.has(dimensions)) return true
  if (await usesPgvector()) {
    // The HNSW index of the size (without one, KNN on the column is exact, just slower).
    if (!(await createPgvectorIndex(db, dimensions))) return false
    indexedDimensions.add(dimensions)
    return true
  }
  if (!vectorTableOf(dimensions) || !(await hasSqliteVec())) return false
  await db.transaction((trx) => createVectorTable(trx, dimensions))
  indexedDimensions.add(dimensions)
  return true
}

/** The vec0 table to search at this size, if there is one (made by any process). */
async function vectorIndexOf(dimensions: number): Promise<string | null> {
  const table = vectorTableOf(dimensions)
  if (!table || !(await hasSqliteVec())) return null
  if (indexedDimensions.has(dimensions)) return table
  const found = rowsOf(
    await db.rawQuery(`select 1 as found from sqlite_master where type = 'table' and name = ?`, [
      table,
    ])
  )
  if (found.length === 0) return null
  indexedDimensions.add(dimensions)
  return table
}

/** vec0's largest k. */
const MAX_K = 4096

/**
 * The KNN query of pgvector in a store: the column cast to the query's size, limited to the
 * rows of that size, so the planner can use that size's partial HNSW index (or, for a store
 * much smaller than the table, the store's rows and an exact sort).
 */
export function pgvectorQueryOf(storeId: string, vector: number[], limit: number) {
  const cast = pgvectorCastOf(vector.length)!
  const literal = toVectorLiteral(vector)
  return {
    sql: `select id, ${PGVECTOR_COLUMN}::${cast.type} <=> ?::${cast.type} as distance
      from knowledge_chunks
      where store_id = ? and vector_dims(${PGVECTOR_COLUMN}) = ${vector.length}
      order by ${PGVECTOR_COLUMN}::${cast.type} <=> ?::${cast.type} limit ?`,
    bindings: [literal, storeId, literal, limit],
  }
}

/**
 * HNSW reads `hnsw.ef_search` candidates (40 by default) and filters by store afterwards;
 * the iterative scan of pgvector 0.8 reads on until `limit` rows of the store are found, in
 * the exact order of distance.
 */
async function pgvectorRanks(storeId: string, vector: number[], limit: number) {
  const { sql, bindings } = pgvectorQueryOf(storeId, vector, limit)
  const rows = await db.transaction(async (trx) => {
    await trx.rawQuery(
      `select set_config('hnsw.ef_search', ?, true), set_config('hnsw.iterative_scan', 'strict_order', true)`,
      [String(Math.min(1000, Math.max(40, limit)))]
    )
    return rowsOf(await trx.rawQuery(sql, bindings))
  })
  return rows.map((row) => ({ id: Number(row.id), score: 1 - Number(row.distance) }))
}

async function vectorRanks(storeId: string, vector: number[], limit: number): Promise<Ranked[]> {
  if (vector.length > 0 && (await usesPgvector())) return pgvectorRanks(storeId, vector, limit)
  const table = await vectorIndexOf(vector.length)
  if (table) {
    // KNN in the store's partition of the index: no other store's vectors are read.
    const rows = rowsOf(
      await db.rawQuery(
        `select rowid as id, distance from ${table}
         where embedding match ? and k = ? and store_id = ?`,
        [toBlob(vector), Math.min(limit, MAX_K), storeId]
      )
    )
    return rows.map((row) => ({ id: Number(row.id), score: 1 - Number(row.distance) }))
  }
  return cachedVectorRanks(storeId, vector, limit)
}

/**
 * Without a vector index (PostgreSQL without pgvector, MySQL/MariaDB, SQLite without
 * sqlite-vec): the store's vectors are read once into this process, normalized, and kept
 * while the store's chunks stay the same; each search then costs one small query (the
 * chunks' count, largest and summed id: any insert or delete changes it, ids are never
 * reused) and the dot products. Stores over the cache's budget are scanned each time.
 */
const CACHE_BUDGET_BYTES = 128 * 1024 * 1024

interface StoreVectors {
  fingerprint: string
  ids: number[]
  vectors: Float32Array[]
  bytes: number
}

const vectorCache = new Map<string, StoreVectors>()
let cachedBytes = 0

async function fingerprintOf(storeId: string) {
  const [row] = rowsOf(
    await db.rawQuery(
      'select count(*) as n, max(id) as m, sum(id) as s from knowledge_chunks where store_id = ?',
      [storeId]
    )
  )
  return `${row?.n}:${row?.m}:${row?.s}`
}

function normalized(vector: Float32Array) {
  let norm = 0
  for (const element of vector) norm += element * element
  if (norm === 0) return null
  const scale = 1 / Math.sqrt(norm)
  for (let index = 0; index < vector.length; index++) vector[index] *= scale
  return vector
}

async function storeVectors(storeId: string): Promise<StoreVectors> {
  const fingerprint = await fingerprintOf(storeId)
  const cached = vectorCache.get(storeId)
  if (cached && cached.fingerprint === fingerprint) {
    // Most recently used last: the first entries are evicted first.
    vectorCache.delete(storeId)
    vectorCache.set(storeId, cached)
    return cached
  }
  if (cached) {
    vectorCache.delete(storeId)
    cachedBytes -= cached.bytes
  }
  const rows = await db
    .from('knowledge_chunks')
    .where('store_id', storeId)
    .whereNotNull('embedding')
    .select('id', 'embedding')
  const entry: StoreVectors = { fingerprint, ids: [], vectors: [], bytes: 0 }
  for (const row of rows) {
    const stored = fromBlob(row.embedding)
    const unit = stored && normalized(stored)
    if (!unit) continue
    entry.ids.push(Number(row.id))
    entry.vectors.push(unit)
    entry.bytes += unit.byteLength
  }
  if (entry.bytes <= CACHE_BUDGET_BYTES) {
    // The fingerprint was read before the rows: a chunk written in between makes the
    // next search read them again, never keep a stale set.
    while (cachedBytes + entry.bytes > CACHE_BUDGET_BYTES && vectorCache.size > 0) {
      const [oldest, old] = vectorCache.entries().next().value!
      vectorCache.delete(oldest)
      cachedBytes -= old.bytes
    }
    vectorCache.set(storeId, entry)
    cachedBytes += entry.bytes
  }
  return entry
}

async function cachedVectorRanks(
  storeId: string,
  vector: number[],
  limit: number
): Promise<Ranked[]> {
  const query = normalized(Float32Array.from(vector))
  if (!query) return []
  const { ids, vectors } = await storeVectors(storeId)
  // The best `limit`, kept in order as the vectors are scored.
  const top: Ranked[] = []
  for (const [index, stored] of vectors.entries()) {
    if (stored.length !== query.length) continue
    let dot = 0
    for (let at = 0; at < query.length; at++) dot += query[at] * stored[at]
    if (top.length === limit && dot <= top[top.length - 1].score) continue
    let at = top.length
    while (at > 0 && top[at - 1].score < dot) at--
    top.splice(at, 0, { id: ids[index], score: dot })
    if (top.length > limit) top.pop()
  }
  return top
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
  // Raw keyword ranks mean little on their own: SQLite's BM25 gives a word found in every
  // chunk of a small store a weight near 0 (its IDF is floored), which read as "score 0" on a
  // match. The score is relative to the best hit (1), whatever the engine or the mode.
  const rankOf = (entry: (typeof ordered)[number]) => (hybrid ? entry.score : (entry.keyword ?? 0))
  const best = Math.max(...ordered.map(rankOf))
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
      score: best > 0 ? round(rankOf(entry) / best) : 0,
      keywordScore: entry.keyword === null ? null : significant(entry.keyword),
      vectorScore: entry.vector === null ? null : round(entry.vector),
    })
  }
  return { mode: hybrid ? 'hybrid' : 'keyword', hits, warning }
}

function round(value: number) {
  return Math.round(value * 10_000) / 10_000
}

/** Four significant digits: a tiny positive rank stays positive. */
function significant(value: number) {
  return Number(value.toPrecision(4))
}
