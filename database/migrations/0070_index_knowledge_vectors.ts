import { BaseSchema } from '@adonisjs/lucid/schema'
import { createVectorTable, dropVectorTables } from '#services/knowledge/vectors'

/**
 * Faster knowledge search (docs/knowledge.md, "Search"; docs/benchmarks/knowledge.md).
 * - SQLite: an index of (id, store_id) that keyword search reads each match's store from
 *   instead of the chunk's row (about a page each, with its vector).
 * - SQLite with sqlite-vec: the vec0 index of the chunks' vectors, one table per dimension,
 *   filled with the vectors stored so far and kept by triggers from then on.
 * - PostgreSQL: the chunks' tsvector stored in a generated column with its GIN index, so
 *   ranking reads it instead of parsing every matching chunk again; and an index on
 *   (store_id, id) that answers the vector cache's freshness check from the index alone.
 */
export default class extends BaseSchema {
  async up() {
    const dialect = this.db.dialect.name
    this.defer(async (db) => {
      if (dialect === 'better-sqlite3' || dialect === 'sqlite3') {
        const loaded = await db
          .rawQuery('select vec_version() as version')
          .then(() => true)
          .catch(() => false)
        await db.rawQuery(
          'create index if not exists knowledge_chunks_id_store_id on knowledge_chunks (id, store_id)'
        )
        if (!loaded) return
        const sizes = await db.rawQuery(
          `select distinct length(embedding) / 4 as dimensions from knowledge_chunks
           where embedding is not null and length(embedding) % 4 = 0`
        )
        for (const row of sizes) await createVectorTable(db, Number(row.dimensions))
      } else if (dialect === 'postgres') {
        await db.rawQuery(
          `alter table knowledge_chunks add column content_tsv tsvector generated always as (to_tsvector('english', content)) stored`
        )
        await db.rawQuery('drop index if exists knowledge_chunks_tsv')
        await db.rawQuery(
          'create index knowledge_chunks_content_tsv on knowledge_chunks using gin (content_tsv)'
        )
        await db.rawQuery(
          'create index knowledge_chunks_store_id_id on knowledge_chunks (store_id, id)'
        )
      }
    })
  }

  async down() {
    const dialect = this.db.dialect.name
    this.defer(async (db) => {
      if (dialect === 'better-sqlite3' || dialect === 'sqlite3') {
        await dropVectorTables(db)
        await db.rawQuery('drop index if exists knowledge_chunks_id_store_id')
      } else if (dialect === 'postgres') {
        await db.rawQuery('drop index if exists knowledge_chunks_store_id_id')
        await db.rawQuery('drop index if exists knowledge_chunks_content_tsv')
        await db.rawQuery('alter table knowledge_chunks drop column if exists content_tsv')
        await db.rawQuery(
          `create index knowledge_chunks_tsv on knowledge_chunks using gin (to_tsvector('english', content))`
        )
      }
    })
  }
}
