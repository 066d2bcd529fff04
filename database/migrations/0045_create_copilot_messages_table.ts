import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The AI copilot's conversations (docs/copilot.md):
 * one per builder and document (a workflow or a bot). The document id has no foreign key on
 * purpose: the rows of a deleted document stay, because the builder's answered messages are
 * what their `userCopilotLimit` counts.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('copilot_messages', (table) => {
      // Increasing ids keep the conversation's order (several rows share a millisecond).
      table.increments('id')
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('workspace_id', 32).notNullable()
      // 'workflow' or 'bot'.
      table.string('document_type', 16).notNullable()
      table.string('document_id', 32).notNullable()
      // USER or ASSISTANT; TEXT or SUGGESTION (the values the copilot writes).
      table.string('role', 16).notNullable()
      table.string('type', 16).notNullable().defaultTo('TEXT')
      table.text('content').notNullable()
      // The history version the assistant's change made, for its version card.
      table.string('version_id', 32).nullable()
      table.boolean('show_version_card').notNullable().defaultTo(false)
      // A user message that reached the model: what userCopilotLimit counts.
      table.boolean('counted').notNullable().defaultTo(false)
      // Token counts and credits of the reply (JSON), or the suggestions of a SUGGESTION.
      table.text('usage').nullable()
      table.timestamp('created_at').notNullable()
      // Named: the generated names pass MySQL's 64-character limit.
      table.index(
        ['document_type', 'document_id', 'user_id'],
        'copilot_messages_conversation_index'
      )
      table.index(['user_id', 'counted'], 'copilot_messages_usage_index')
    })
  }

  async down() {
    this.schema.dropTableIfExists('copilot_messages')
  }
}
