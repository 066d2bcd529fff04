import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Two-factor sign-in (docs/security.md, "Two-factor sign-in"): the TOTP secret (encrypted
 * like credentials, JSON of iv and data), when it was confirmed (null while a setup is
 * pending), the last time step a code was accepted for (a code works once), and the
 * single-use recovery codes, stored as keyed hashes.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.text('two_factor_secret').nullable()
      table.timestamp('two_factor_enabled_at').nullable()
      table.bigInteger('two_factor_last_step').nullable()
    })

    this.schema.createTable('two_factor_recovery_codes', (table) => {
      table.increments('id')
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
        .index()
      table.string('code_hash', 64).notNullable()
      table.timestamp('used_at').nullable()
      table.timestamp('created_at').notNullable()
    })
  }

  async down() {
    this.schema.dropTable('two_factor_recovery_codes')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('two_factor_secret')
      table.dropColumn('two_factor_enabled_at')
      table.dropColumn('two_factor_last_step')
    })
  }
}
