import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Event triggers (issue 6 "Triggers"): what an active workflow's event trigger was started
 * with (node, options, credentials owner) and what it keeps between polls. No foreign key on
 * the workflow: deleting a workflow must leave the row for its deactivation hook (e.g.
 * deleting a chat platform's webhook), which removes it.
 */
export default class extends BaseSchema {
  protected tableName = 'workflow_trigger_states'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('workflow_id', 32).primary()
      table.string('workspace_id', 32).notNullable()
      table.string('owner_id', 32).nullable()
      table.string('node_id', 64).notNullable()
      table.string('plugin_id', 64).notNullable()
      table.text('options').notNullable()
      table.string('secret', 64).notNullable()
      table.text('state').nullable()
      // A poll holds the row until then, so two ticks never poll the same workflow at once.
      table.bigInteger('lease_until').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
