import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('credentials', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      // The creator; for plugins of scope "user" only they see and use the record.
      table.string('user_id', 32).nullable().references('id').inTable('users').onDelete('CASCADE')
      table.string('type', 100).notNullable()
      table.string('name', 255).notNullable()
      table.string('iv', 64).notNullable()
      table.text('data').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id', 'type'])
    })

    // The block marketplace: a plugin is enabled on every plan unless a row says otherwise.
    this.schema.createTable('plugin_plan_settings', (table) => {
      table.increments('id')
      table.string('plugin_id', 100).notNullable()
      table.string('plan', 32).notNullable()
      table.boolean('enabled').notNullable()
      table.timestamp('updated_at').notNullable()
      table.unique(['plugin_id', 'plan'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('plugin_plan_settings')
    this.schema.dropTableIfExists('credentials')
  }
}
