import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Stripe billing (docs/billing.md): one row per Stripe subscription of a workspace, as the
 * webhooks last described it, and the ids of the webhook events already applied, so that
 * a redelivered event changes nothing.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('subscriptions', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table.string('stripe_subscription_id', 255).notNullable().unique()
      table.string('stripe_customer_id', 255).notNullable()
      table.string('plan', 16).notNullable()
      // 'month' or 'year'
      table.string('period', 8).notNullable()
      // Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete...
      table.string('status', 32).notNullable()
      table.timestamp('current_period_end').nullable()
      // The scheduled cancel date, shown on the billing tab.
      table.timestamp('cancel_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id'])
    })

    this.schema.createTable('stripe_events', (table) => {
      table.string('id', 255).primary()
      table.string('type', 128).notNullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTableIfExists('stripe_events')
    this.schema.dropTableIfExists('subscriptions')
  }
}
