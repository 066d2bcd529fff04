import { BaseSchema } from '@adonisjs/lucid/schema'
import {
  backfillPgvector,
  createPgvectorIndex,
  dropPgvector,
  hasPgvectorColumn,
  installPgvector,
  PGVECTOR_COLUMN,
  pgvectorSizes,
} from '#services/knowledge/pgvector'

/**
 * pgvector on PostgreSQL (docs/knowledge.md, "Vector index on PostgreSQL"): when the server
 * has the `vector` extension's files, the extension (created here if the migration may),
 * a `vector` column on the chunks filled from their stored blobs, and one HNSW index per size
 * already stored (indexing adds the index of a new size on first use). Without the extension,
 * and on the other databases, nothing changes: search keeps its vector cache.
 */
export default class extends BaseSchema {
  async up() {
    if (this.db.dialect.name !== 'postgres') return
    this.defer(async (db) => {
      if (!(await installPgvector(db))) return
      if (!(await hasPgvectorColumn(db))) {
        await db.rawQuery(`alter table knowledge_chunks add column ${PGVECTOR_COLUMN} vector`)
      }
      await backfillPgvector(db)
      for (const dimensions of await pgvectorSizes(db)) await createPgvectorIndex(db, dimensions)
    })
  }

  async down() {
    if (this.db.dialect.name !== 'postgres') return
    // The extension stays: other schemas of the database may use it.
    this.defer(async (db) => {
      if (await hasPgvectorColumn(db)) await dropPgvector(db)
    })
  }
}
