import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Deliveries of event triggers already taken (issue 6 "Triggers"): services such as Slack
 * and Telegram send an event again when our answer was slow or lost, with the same id. A
 * delivery id seen before starts no second run. Rows are pruned after a few days, long
 * after the services stop retrying.
 */
export default class extends BaseSchema {
  protected tableName = 'workflow_event_deliveries'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('workflow_id', 32).notNullable()
      table.string('delivery_id', 191).notNullable()
      table.string('run_id', 32).nullable()
      table.timestamp('created_at').notNullable().index()
      table.primary(['workflow_id', 'delivery_id'])
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
