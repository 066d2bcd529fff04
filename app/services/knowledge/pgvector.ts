import { fromBlob, type RawRunner } from './vectors.js'

/**
 * pgvector on PostgreSQL (docs/knowledge.md, "Vector index on PostgreSQL"): the chunks'
 * vectors also live in `knowledge_chunks.embedding_vector`, a `vector` column without a
 * fixed size (stores embed at different sizes), written with the blob by indexing. HNSW
 * needs a fixed size, so each size has its own partial expression index,
 * `knowledge_chunks_hnsw_<dimensions>`, on the column cast to that size and limited to the
 * rows of that size; a KNN query repeats the cast and the condition so the planner can use it.
 * The blob in `embedding` stays the source of truth (the other databases read it, and the
 * migration fills the column from it).
 */
export const PGVECTOR_COLUMN = 'embedding_vector'

const INDEX_PREFIX = 'knowledge_chunks_hnsw_'

/** pgvector's HNSW limits: 2,000 dimensions as `vector`, 4,000 as `halfvec`. */
const MAX_VECTOR_INDEX = 2000
const MAX_HALFVEC_INDEX = 4000

function rowsOf(result: any): any[] {
  if (Array.isArray(result)) return result
  return result?.rows ?? []
}

/**
 * How a size is indexed and compared: the cast of the column (and of the query) and the
 * operator class of its index; sizes above 4,000 have no index and are compared exactly.
 */
export function pgvectorCastOf(dimensions: number) {
  if (!Number.isInteger(dimensions) || dimensions < 1) return null
  if (dimensions <= MAX_VECTOR_INDEX) {
    return { type: `vector(${dimensions})`, ops: 'vector_cosine_ops', indexed: true }
  }
  if (dimensions <= MAX_HALFVEC_INDEX) {
    return { type: `halfvec(${dimensions})`, ops: 'halfvec_cosine_ops', indexed: true }
  }
  return { type: `vector(${dimensions})`, ops: 'vector_cosine_ops', indexed: false }
}

export function pgvectorIndexOf(dimensions: number) {
  return `${INDEX_PREFIX}${dimensions}`
}

/** pgvector's text form of a vector: `[0.1,0.2,...]`. */
export function toVectorLiteral(vector: ArrayLike<number>) {
  return `[${Array.from(vector).join(',')}]`
}

/** Whether the chunks have the pgvector column (migration 0090 adds it). */
export async function hasPgvectorColumn(client: RawRunner) {
  const rows = rowsOf(
    await client.rawQuery(
      `select 1 as found from information_schema.columns
       where table_schema = current_schema() and table_name = 'knowledge_chunks' and column_name = ?`,
      [PGVECTOR_COLUMN]
    )
  )
  return rows.length > 0
}

/**
 * Installs the `vector` extension when PostgreSQL has its files: already created (by an
 * operator), or created here when the migration runs as a superuser (pgvector is not a
 * trusted extension). Checked first rather than attempted, because a failed statement would
 * abort the migration's transaction.
 */
export async function installPgvector(client: RawRunner) {
  const installed = rowsOf(
    await client.rawQuery(`select 1 as found from pg_extension where extname = 'vector'`)
  )
  if (installed.length > 0) return true
  const available = rowsOf(
    await client.rawQuery(`select 1 as found from pg_available_extensions where name = 'vector'`)
  )
  if (available.length === 0) return false
  const [role] = rowsOf(
    await client.rawQuery('select rolsuper from pg_roles where rolname = current_user')
  )
  if (!role?.rolsuper) return false
  await client.rawQuery('create extension if not exists vector')
  return true
}

/**
 * Creates the HNSW index of a size when it has none. Another process may create it at the
 * same moment: `if not exists` is not atomic, so an error is accepted when the index is there.
 */
export async function createPgvectorIndex(client: RawRunner, dimensions: number) {
  const cast = pgvectorCastOf(dimensions)
  if (!cast?.indexed) return false
  const name = pgvectorIndexOf(dimensions)
  const sql = `create index if not exists ${name} on knowledge_chunks
    using hnsw ((${PGVECTOR_COLUMN}::${cast.type}) ${cast.ops})
    where vector_dims(${PGVECTOR_COLUMN}) = ${dimensions}`
  try {
    await client.rawQuery(sql)
  } catch (error) {
    const [found] = rowsOf(await client.rawQuery('select to_regclass(?) as found', [name]))
    if (!found?.found) throw error
  }
  return true
}

/** The sizes of the vectors stored in the column. */
export async function pgvectorSizes(client: RawRunner) {
  const rows = rowsOf(
    await client.rawQuery(
      `select distinct vector_dims(${PGVECTOR_COLUMN}) as dimensions from knowledge_chunks
       where ${PGVECTOR_COLUMN} is not null`
    )
  )
  return rows.map((row) => Number(row.dimensions))
}

/** Fills the column from the blobs of the chunks stored before it existed, 500 at a time. */
export async function backfillPgvector(client: RawRunner) {
  let after = 0
  for (;;) {
    const rows = rowsOf(
      await client.rawQuery(
        `select id, embedding from knowledge_chunks
         where id > ? and embedding is not null and ${PGVECTOR_COLUMN} is null
         order by id limit 500`,
        [after]
      )
    )
    if (rows.length === 0) return
    after = Number(rows[rows.length - 1].id)
    const values: { id: number; vec: string }[] = []
    for (const row of rows) {
      const vector = fromBlob(row.embedding)
      if (!vector || vector.some((value) => !Number.isFinite(value))) continue
      values.push({ id: Number(row.id), vec: toVectorLiteral(vector) })
    }
    if (values.length === 0) continue
    // One JSON parameter: knex would spread an array binding into a list.
    await client.rawQuery(
      `update knowledge_chunks as c set ${PGVECTOR_COLUMN} = v.vec::vector
       from json_to_recordset(?::json) as v(id int, vec text) where c.id = v.id`,
      [JSON.stringify(values)]
    )
  }
}

/** Drops the column and its indexes (the migration's down). */
export async function dropPgvector(client: RawRunner) {
  const indexes = rowsOf(
    await client.rawQuery(
      `select indexname from pg_indexes
       where schemaname = current_schema() and tablename = 'knowledge_chunks' and indexname like ?`,
      [`${INDEX_PREFIX}%`]
    )
  )
  for (const { indexname: name } of indexes) {
    if (/^knowledge_chunks_hnsw_\d+$/.test(name))
      await client.rawQuery(`drop index if exists ${name}`)
  }
  await client.rawQuery(`alter table knowledge_chunks drop column if exists ${PGVECTOR_COLUMN}`)
}
