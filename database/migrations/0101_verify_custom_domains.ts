import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Custom domains are served only once their owner proved control of the host (a DNS TXT
 * record, docs/custom_domains.md). A domain asked for but not proven yet must not keep the
 * real owner from claiming it later, so the column is no longer unique: only verified
 * domains are unique, which the verification checks. Domains saved before this migration
 * start unverified.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('bots', (table) => {
      table.dropUnique(['custom_domain'])
    })
    this.schema.alterTable('bots', (table) => {
      table.timestamp('custom_domain_verified_at', { useTz: true }).nullable()
      table.index(['custom_domain'], 'bots_custom_domain_index')
    })
  }

  async down() {
    this.schema.alterTable('bots', (table) => {
      table.dropIndex(['custom_domain'], 'bots_custom_domain_index')
      table.dropColumn('custom_domain_verified_at')
    })
    this.schema.alterTable('bots', (table) => {
      table.unique(['custom_domain'])
    })
  }
}
