import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Collaborators of one bot who are not members of its workspace:
 * the e-mail is the key, so an invitation works before the person has an account.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('bot_invitations', (table) => {
      table.string('id', 32).primary()
      table.string('bot_id', 32).notNullable().references('id').inTable('bots').onDelete('CASCADE')
      table.string('email', 254).notNullable().index()
      table.string('type', 16).notNullable()
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.unique(['bot_id', 'email'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('bot_invitations')
  }
}
