/**
 * Embeddings as stored in knowledge_chunks.embedding: float32 little-endian, the blob
 * layout sqlite-vec reads, so the same bytes serve sqlite-vec and the JavaScript fallback.
 */
export function toBlob(vector: number[]): Buffer {
  const buffer = Buffer.alloc(vector.length * 4)
  for (let index = 0; index < vector.length; index++) buffer.writeFloatLE(vector[index], index * 4)
  return buffer
}

export function fromBlob(blob: Uint8Array | null | undefined): Float32Array | null {
  if (!blob || blob.byteLength === 0 || blob.byteLength % 4 !== 0) return null
  const copy = new Uint8Array(blob.byteLength)
  copy.set(blob)
  return new Float32Array(copy.buffer)
}

/** Cosine similarity in [-1, 1]; 0 when either vector is empty or their sizes differ. */
export function cosine(a: number[] | Float32Array, b: number[] | Float32Array) {
  if (a.length === 0 || a.length !== b.length) return 0
  let dot = 0
  let normA = 0
  let normB = 0
  for (const [index, element] of a.entries()) {
    dot += element * b[index]
    normA += element * element
    normB += b[index] * b[index]
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/**
 * sqlite-vec's `vec0` index of the chunks' vectors (docs/knowledge.md, "Vector index on
 * SQLite"): one virtual table per dimension, `knowledge_chunks_vec_<dimensions>`, its rowid
 * the chunk's id and the store as its partition key, so a KNN query reads only the store's
 * vectors. A table per dimension (not per store) because a vec0 column has one fixed size
 * while stores, and a store across a change of model, embed at different sizes; there are
 * few distinct sizes, and a store's KNN reads one partition of one table.
 *
 * Like FTS5 over `content`, the index is kept by triggers on knowledge_chunks: a chunk
 * inserted with a vector of that size is added, a deleted chunk (a source re-indexed or
 * deleted, a store deleted: cascades fire triggers too) is removed. The blob in
 * knowledge_chunks.embedding stays the source of truth the index is built from.
 */
export const VECTOR_TABLE_PREFIX = 'knowledge_chunks_vec_'

/** sqlite-vec's limit on a vec0 column; larger vectors are searched by a scan. */
export const MAX_INDEXED_DIMENSIONS = 8192

export function vectorTableOf(dimensions: number) {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_INDEXED_DIMENSIONS) {
    return null
  }
  return `${VECTOR_TABLE_PREFIX}${dimensions}`
}

/** A raw-query runner: the app's db service, a transaction or a migration's client. */
export interface RawRunner {
  rawQuery(sql: string, bindings?: any[]): Promise<any>
}

/**
 * Creates the vec0 table of a dimension with its triggers, filled with the chunks already
 * stored at that size; nothing when it exists. Only on SQLite with sqlite-vec loaded. Run
 * it in a transaction: the table, its triggers and the backfill then appear at once to the
 * other connections, so no chunk is inserted between the table and its trigger.
 */
export async function createVectorTable(client: RawRunner, dimensions: number) {
  const table = vectorTableOf(dimensions)
  if (!table) return null
  const bytes = dimensions * 4
  const exists = await client.rawQuery(
    `select 1 as found from sqlite_master where type = 'table' and name = ?`,
    [table]
  )
  if ((Array.isArray(exists) ? exists : (exists?.rows ?? [])).length > 0) return table
  await client.rawQuery(
    `create virtual table if not exists ${table} using vec0(store_id text partition key, embedding float[${dimensions}] distance_metric=cosine)`
  )
  await client.rawQuery(
    `create trigger if not exists ${table}_ai after insert on knowledge_chunks when length(new.embedding) = ${bytes} begin insert into ${table}(rowid, store_id, embedding) values (new.id, new.store_id, new.embedding); end`
  )
  await client.rawQuery(
    `create trigger if not exists ${table}_ad after delete on knowledge_chunks when length(old.embedding) = ${bytes} begin delete from ${table} where rowid = old.id; end`
  )
  await client.rawQuery(
    `create trigger if not exists ${table}_au after update of embedding, store_id on knowledge_chunks begin delete from ${table} where rowid = old.id; insert into ${table}(rowid, store_id, embedding) select new.id, new.store_id, new.embedding where length(new.embedding) = ${bytes}; end`
  )
  // Chunks stored before the table existed (by an older version: the migration's backfill).
  await client.rawQuery(
    `insert into ${table}(rowid, store_id, embedding)
     select id, store_id, embedding from knowledge_chunks where length(embedding) = ${bytes}`
  )
  return table
}

/** The vec0 tables present, by dimension. */
export async function vectorTables(client: RawRunner): Promise<Map<number, string>> {
  const result = await client.rawQuery(
    `select name from sqlite_master where type = 'table' and name like '${VECTOR_TABLE_PREFIX}%'`
  )
  const rows: { name: string }[] = Array.isArray(result) ? result : (result?.rows ?? [])
  const tables = new Map<number, string>()
  for (const { name } of rows) {
    const match = /^knowledge_chunks_vec_(\d+)$/.exec(name)
    if (match) tables.set(Number(match[1]), name)
  }
  return tables
}

/** Drops every vec0 table and its triggers (a migration's down). */
export async function dropVectorTables(client: RawRunner) {
  for (const table of (await vectorTables(client)).values()) {
    for (const suffix of ['ai', 'ad', 'au']) {
      await client.rawQuery(`drop trigger if exists ${table}_${suffix}`)
    }
    await client.rawQuery(`drop table if exists ${table}`)
  }
}
