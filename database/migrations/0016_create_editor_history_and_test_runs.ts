import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Editor history and test runs (docs/workflows.md "History", "Test runs"):
 * - workflow versions say what made them (kind), so publishes, restores and named saves
 *   stay as they were while autosaves keep updating the open draft version;
 * - bots get the same history;
 * - a test run of a workflow's draft runs its own compiled copy and is kept out of the
 *   published version's statistics.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('workflow_versions', (table) => {
      table.string('kind', 16).notNullable().defaultTo('draft')
    })

    this.schema.createTable('bot_versions', (table) => {
      table.string('id', 32).primary()
      table.string('bot_id', 32).notNullable().references('id').inTable('bots').onDelete('CASCADE')
      table.string('version_name', 255).notNullable()
      table.string('kind', 16).notNullable().defaultTo('draft')
      table.text('content').notNullable()
      table.string('user_id', 32).nullable().references('id').inTable('users').onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['bot_id', 'created_at'])
    })

    this.schema.alterTable('workflow_runs', (table) => {
      table.boolean('is_test').notNullable().defaultTo(false)
      // The draft as compiled when the test run started (published runs read the workflow's).
      table.text('executable_workflow').nullable()
    })
  }

  async down() {
    this.schema.alterTable('workflow_runs', (table) => {
      table.dropColumn('executable_workflow')
      table.dropColumn('is_test')
    })
    this.schema.dropTableIfExists('bot_versions')
    this.schema.alterTable('workflow_versions', (table) => {
      table.dropColumn('kind')
    })
  }
}
