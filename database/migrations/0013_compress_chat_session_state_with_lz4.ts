import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A chat session's state is rewritten on every turn, and past about 2 KB (a conversation
 * of a few turns, with its transcript) PostgreSQL compresses it. Its default compressor
 * (pglz) cost a fifth of that update's CPU; lz4 costs much less, for a slightly larger
 * row. PostgreSQL 14+ built with lz4 (the Debian, Ubuntu and Docker builds are) only:
 * elsewhere, and on other databases, nothing changes. Rows already written keep their
 * compression until their next turn.
 */
export default class extends BaseSchema {
  async up() {
    this.setCompression('lz4')
  }

  async down() {
    this.setCompression('default')
  }

  private setCompression(method: 'lz4' | 'default') {
    if (this.db.dialect.name !== 'postgres') return
    this.defer(async (db) => {
      await db.rawQuery(`
        DO $$
        BEGIN
          ALTER TABLE chat_sessions ALTER COLUMN state SET COMPRESSION ${method};
        EXCEPTION WHEN OTHERS THEN
          RAISE NOTICE 'chat_sessions.state keeps its compression: %', SQLERRM;
        END $$`)
    })
  }
}
