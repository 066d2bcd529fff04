import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What instance admins change on accounts and workspaces (plan, end date, suspension, AI
 * credits), from /admin/workspaces or `node ace workspace:plan`, and who changed it.
 * Rows outlive the admin and the target: no foreign keys, the labels keep the names.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('admin_audit_logs', (table) => {
      table.increments('id')
      // Null for the command line; `actor_label` then says 'cli'.
      table.string('actor_id', 32).nullable()
      table.string('actor_label', 255).notNullable()
      table.string('action', 32).notNullable()
      table.string('target_type', 16).notNullable()
      table.string('target_id', 32).notNullable()
      table.string('target_label', 255).notNullable()
      // JSON: the values before and after.
      table.text('details').notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['target_type', 'target_id'])
      table.index(['created_at'])
    })
  }

  async down() {
    this.schema.dropTable('admin_audit_logs')
  }
}
