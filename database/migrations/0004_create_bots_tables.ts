import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('folders', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      // Deleting a folder moves its content to the dashboard (app code), so no cascade here.
      table
        .string('parent_folder_id', 32)
        .nullable()
        .references('id')
        .inTable('folders')
        .onDelete('SET NULL')
      table.string('name', 255).notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id', 'parent_folder_id'])
    })

    this.schema.createTable('bots', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table
        .string('folder_id', 32)
        .nullable()
        .references('id')
        .inTable('folders')
        .onDelete('SET NULL')
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.string('name', 255).notNullable()
      table.string('icon', 1024).nullable()
      table.string('version', 8).notNullable()
      table.string('public_id', 255).nullable().unique()
      table.string('custom_domain', 255).nullable().unique()
      table.text('groups').notNullable()
      table.text('events').notNullable()
      table.text('edges').notNullable()
      table.text('variables').notNullable()
      table.text('theme').notNullable()
      table.text('settings').notNullable()
      table.string('selected_theme_template_id', 32).nullable()
      table.text('results_table_preferences').nullable()
      table.string('whatsapp_credentials_id', 32).nullable()
      table.string('risk_level', 16).nullable()
      table.boolean('is_archived').notNullable().defaultTo(false)
      table.boolean('is_closed').notNullable().defaultTo(false)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id', 'folder_id'])
    })

    // The published copy the chat engine runs; one per bot.
    this.schema.createTable('published_bots', (table) => {
      table.string('id', 32).primary()
      table
        .string('bot_id', 32)
        .notNullable()
        .unique()
        .references('id')
        .inTable('bots')
        .onDelete('CASCADE')
      table.string('version', 8).notNullable()
      table.text('groups').notNullable()
      table.text('events').notNullable()
      table.text('edges').notNullable()
      table.text('variables').notNullable()
      table.text('theme').notNullable()
      table.text('settings').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTableIfExists('published_bots')
    this.schema.dropTableIfExists('bots')
    this.schema.dropTableIfExists('folders')
  }
}
