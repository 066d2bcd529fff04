import { BaseSchema } from '@adonisjs/lucid/schema'

/** Themes a workspace saved under a name ("My templates" of the Theme tab). */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('theme_templates', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table.string('name', 255).notNullable()
      table.text('theme').notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('theme_templates')
  }
}
