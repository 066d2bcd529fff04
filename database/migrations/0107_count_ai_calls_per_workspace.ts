import { BaseSchema } from '@adonisjs/lucid/schema'

/** The AI calls of each workspace per month, where the plan's `aiCalls` limit holds. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('ai_call_usage', (table) => {
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      /** YYYY-MM (UTC). */
      table.string('period', 7).notNullable()
      table.integer('calls').notNullable().defaultTo(0)
      table.primary(['workspace_id', 'period'])
    })
  }

  async down() {
    this.schema.dropTable('ai_call_usage')
  }
}
