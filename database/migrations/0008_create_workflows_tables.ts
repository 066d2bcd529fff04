import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Workflows and their
 * history. Runs and their logs have their own migration.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('workflows', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.string('name', 255).notNullable()
      table.text('description').nullable()
      table.string('icon', 1024).nullable()
      table.integer('version').notNullable().defaultTo(1)
      table.string('status', 16).notNullable().defaultTo('DRAFT')
      table.boolean('is_active').notNullable().defaultTo(false)
      table.text('blocks').notNullable()
      table.text('edges').notNullable()
      table.text('variables').notNullable()
      table.text('settings').notNullable()
      // Compiled on publish: what triggers and the executor run.
      table.text('executable_workflow').nullable()
      table.boolean('is_archived').notNullable().defaultTo(false)
      table.string('updated_by', 16).nullable()
      table.boolean('is_modified_by_ai').notNullable().defaultTo(false)
      table.timestamp('published_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id', 'is_archived', 'updated_at'])
      // Activation limits count the active workflows of a workspace; schedulers list them at boot.
      table.index(['is_active', 'workspace_id'])
    })

    this.schema.createTable('workflow_versions', (table) => {
      table.string('id', 32).primary()
      table
        .string('workflow_id', 32)
        .notNullable()
        .references('id')
        .inTable('workflows')
        .onDelete('CASCADE')
      table.string('version_name', 255).notNullable()
      table.text('workflow').notNullable()
      table.string('user_id', 32).nullable().references('id').inTable('users').onDelete('SET NULL')
      table.string('updated_by', 16).notNullable().defaultTo('user')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workflow_id', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('workflow_versions')
    this.schema.dropTableIfExists('workflows')
  }
}
