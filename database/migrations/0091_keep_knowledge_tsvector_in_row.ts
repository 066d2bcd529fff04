import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Faster keyword search on PostgreSQL (docs/knowledge.md, "Search"; docs/benchmarks/knowledge.md).
 * A chunk's row (its text, tsvector, blob and pgvector vector) is over PostgreSQL's 2 kB TOAST
 * threshold, and the tsvector was moved out of the row: every match of a query fetched it from
 * TOAST twice (the match and the rank), 6 buffers a row. The vectors, which only the KNN
 * query reads, now leave the row first and the tsvector stays in it (storage `main`):
 * a 10,000-chunk store's match read 2,100 buffers instead of 61,000. Rows written from now
 * on are laid out so; existing ones keep their layout until re-indexed.
 */
export default class extends BaseSchema {
  async up() {
    if (this.db.dialect.name !== 'postgres') return
    this.defer(async (db) => {
      await db.rawQuery('alter table knowledge_chunks alter column content_tsv set storage main')
      await db.rawQuery('alter table knowledge_chunks alter column embedding set storage external')
    })
  }

  async down() {
    if (this.db.dialect.name !== 'postgres') return
    this.defer(async (db) => {
      await db.rawQuery(
        'alter table knowledge_chunks alter column content_tsv set storage extended'
      )
      await db.rawQuery('alter table knowledge_chunks alter column embedding set storage extended')
    })
  }
}
