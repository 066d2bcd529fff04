import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What visitors leave: results (one per visitor and start) with their answers and logs,
 * the chat sessions the engine resumes, and the monthly chat count per workspace.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('results', (table) => {
      table.string('id', 32).primary()
      table.string('bot_id', 32).notNullable().references('id').inTable('bots').onDelete('CASCADE')
      table.text('variables').notNullable()
      table.boolean('has_started').notNullable().defaultTo(false)
      table.boolean('is_completed').notNullable().defaultTo(false)
      table.boolean('is_archived').notNullable().defaultTo(false)
      table.string('last_chat_session_id', 32).nullable()
      table.text('location').nullable()
      table.text('device_details').nullable()
      table.string('unique_user_id', 255).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['bot_id', 'is_archived', 'created_at'])
    })

    this.schema.createTable('answers', (table) => {
      table.increments('id')
      table
        .string('result_id', 32)
        .notNullable()
        .references('id')
        .inTable('results')
        .onDelete('CASCADE')
      table.string('block_id', 64).notNullable()
      table.string('group_id', 64).notNullable()
      table.string('variable_id', 64).nullable()
      table.text('content').notNullable()
      table.text('attached_file_urls').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['result_id'])
    })

    this.schema.createTable('result_logs', (table) => {
      table.increments('id')
      table
        .string('result_id', 32)
        .notNullable()
        .references('id')
        .inTable('results')
        .onDelete('CASCADE')
      table.string('status', 16).notNullable()
      table.text('description').notNullable()
      table.text('details').nullable()
      table.timestamp('created_at').notNullable()
      table.index(['result_id'])
    })

    // No foreign keys: a session outlives nothing, and it is read and written once per turn.
    this.schema.createTable('chat_sessions', (table) => {
      table.string('id', 32).primary()
      table.text('state').notNullable()
      table.string('source', 16).notNullable().defaultTo('web')
      table.string('bot_id', 32).nullable()
      table.boolean('is_replying').notNullable().defaultTo(false)
      table.timestamp('expires_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['expires_at'])
    })

    this.schema.createTable('chat_usage', (table) => {
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      /** YYYY-MM (UTC). */
      table.string('period', 7).notNullable()
      table.integer('chats').notNullable().defaultTo(0)
      table.primary(['workspace_id', 'period'])
    })
  }

  async down() {
    this.schema.dropTable('chat_usage')
    this.schema.dropTable('chat_sessions')
    this.schema.dropTable('result_logs')
    this.schema.dropTable('answers')
    this.schema.dropTable('results')
  }
}
