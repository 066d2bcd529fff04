import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * AI credit accounting (issue 7): each user holds `ai_credits`; a price
 * row per model says how many input and output tokens one credit buys; every provider call
 * leaves a usage row with what it cost.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      // Ten credits to start with: our choice (no price is set for them).
      table.decimal('ai_credits', 24, 9).notNullable().defaultTo(10)
    })

    this.schema.createTable('ai_model_prices', (table) => {
      table.increments('id')
      // 'default' is the row used when a call names no model or an unpriced one.
      table.string('model', 191).notNullable().unique()
      // Tokens per credit: cost = input tokens / input_token + output tokens / output_token.
      table.decimal('input_token', 24, 6).notNullable()
      table.decimal('output_token', 24, 6).notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })

    this.schema.createTable('ai_usages', (table) => {
      table.increments('id')
      table
        .string('account_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('workspace_id', 32).nullable()
      table.string('model', 191).nullable()
      // The block or node type that made the call, for the usage table in Billing.
      table.string('source', 64).nullable()
      table.integer('input_tokens').notNullable().defaultTo(0)
      table.integer('output_tokens').notNullable().defaultTo(0)
      table.decimal('credits_used', 24, 9).notNullable().defaultTo(0)
      table.timestamp('created_at').notNullable()
      table.index(['account_id', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTable('ai_usages')
    this.schema.dropTable('ai_model_prices')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('ai_credits')
    })
  }
}
