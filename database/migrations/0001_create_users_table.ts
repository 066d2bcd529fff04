import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('plans', (table) => {
      table.string('name', 32).primary()
      table.string('label', 64).notNullable()
      table.integer('price_monthly').notNullable().defaultTo(0)
      table.string('duration', 32).notNullable()
      table.json('limits').notNullable()
      table.json('features').notNullable()
      table.integer('sort_order').notNullable().defaultTo(0)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })

    this.schema.createTable('users', (table) => {
      table.string('id', 32).primary()
      table.string('email', 254).notNullable().unique()
      table.string('name', 255).nullable()
      table.string('image', 1024).nullable()
      table.string('company', 255).nullable()
      table.string('graph_navigation', 16).notNullable().defaultTo('mouse')
      table.string('preferred_app_appearance', 16).notNullable().defaultTo('system')
      table.string('preferred_language', 8).notNullable().defaultTo('en')
      table.json('onboarding_categories').nullable()
      table.json('displayed_in_app_notifications').nullable()
      table.json('tour_status').nullable()
      table.string('plan', 32).notNullable().defaultTo('FREE')
      table.timestamp('plan_ends_at').nullable()
      table.timestamp('email_verified_at').nullable()
      table.timestamp('last_signed_in_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })

    this.schema.createTable('oauth_accounts', (table) => {
      table.string('id', 32).primary()
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('provider', 32).notNullable()
      table.string('provider_user_id', 255).notNullable()
      table.timestamp('created_at').notNullable()
      table.unique(['provider', 'provider_user_id'])
    })

    this.schema.createTable('login_tokens', (table) => {
      table.string('id', 32).primary()
      table.string('email', 254).notNullable().index()
      table.string('token_hash', 128).notNullable().unique()
      table.string('name', 255).nullable()
      table.string('redirect_path', 1024).nullable()
      table.timestamp('expires_at').notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
    })

    this.schema.createTable('auth_access_tokens', (table) => {
      table.increments('id')
      table
        .string('tokenable_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('type').notNullable()
      table.string('name').nullable()
      table.string('hash').notNullable()
      table.text('abilities').notNullable()
      table.timestamp('created_at')
      table.timestamp('updated_at')
      table.timestamp('last_used_at').nullable()
      table.timestamp('expires_at').nullable()
    })

    this.schema.createTable('dev_mails', (table) => {
      table.increments('id')
      table.string('to', 254).notNullable().index()
      table.string('subject', 255).notNullable()
      table.text('text').notNullable()
      table.text('html').nullable()
      table.timestamp('created_at').notNullable()
    })

    this.schema.createTable('rate_limits', (table) => {
      table.string('key', 255).notNullable().primary()
      table.integer('points', 9).notNullable().defaultTo(0)
      table.bigint('expire').unsigned()
    })
  }

  async down() {
    for (const t of [
      'rate_limits',
      'dev_mails',
      'auth_access_tokens',
      'login_tokens',
      'oauth_accounts',
      'users',
      'plans',
    ]) {
      this.schema.dropTableIfExists(t)
    }
  }
}
