import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Conversations a plugin holds with a service that calls back (docs/plugins.md, "Sessions
 * called back by a service"): a Twilio voice call's turns arrive as separate requests, maybe
 * at another web process, so what was said so far lives here and not in memory.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('plugin_sessions', (table) => {
      // A random token: it is the secret part of the callback URL.
      table.string('id', 64).primary()
      table.string('plugin_id', 100).notNullable()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      // Whose AI credits the callbacks spend (the workflow's owner).
      table.string('owner_id', 32).nullable().references('id').inTable('users').onDelete('SET NULL')
      // The workflow run and node waiting for the session's end, if any.
      table.string('run_id', 32).nullable()
      table.string('node_id', 100).nullable()
      // 'open' or 'closed'
      table.string('status', 8).notNullable()
      table.text('state').nullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('plugin_sessions')
  }
}
