import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Signed-in browser sessions, one row per sign-in (docs/security.md, "Sessions"). The
 * session cookie names its row; a cookie whose row is gone (signed out, signed out of all
 * devices, expired) no longer signs anyone in, even a copy taken before.
 */
export default class extends BaseSchema {
  protected tableName = 'user_sessions'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 32).primary()
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
        .index()
      table.timestamp('expires_at').notNullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
