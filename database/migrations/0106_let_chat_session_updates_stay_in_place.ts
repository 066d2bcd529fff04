import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Every chat turn rewrites its session's row, and moves its `expires_at` (a sliding expiry).
 * An index on a column an update changes keeps PostgreSQL from updating the row in place (a
 * HOT update): each turn then wrote a new row version elsewhere, one new entry in each of the
 * table's indexes, and left vacuum a dead version and two dead index entries. Nothing reads
 * sessions by their expiry (a turn checks the expiry of the session it read by id), so the
 * index goes. PostgreSQL also leaves a sixth of each page of sessions and results free for
 * their next versions (a session grows a little at each turn), so an update finds room on
 * its own page. Other databases only lose the index.
 * A sweep of expired sessions, if one is added, can read them in batches by primary key.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('chat_sessions', (table) => {
      table.dropIndex(['expires_at'])
    })
    this.setFillFactor(85)
  }

  async down() {
    this.setFillFactor(100)
    this.schema.alterTable('chat_sessions', (table) => {
      table.index(['expires_at'])
    })
  }

  private setFillFactor(percent: number) {
    if (this.db.dialect.name !== 'postgres') return
    this.defer(async (db) => {
      await db.rawQuery(`ALTER TABLE chat_sessions SET (fillfactor = ${percent})`)
      await db.rawQuery(`ALTER TABLE results SET (fillfactor = ${percent})`)
    })
  }
}
