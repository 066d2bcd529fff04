import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Leases on running runs (docs/queue.md): the process executing a run names itself in
 * `claimed_by` and renews `lease_expires_at` every few seconds. A run whose lease has
 * expired belongs to a process that died: it goes back to queued at once (its concurrency
 * slot freed) and another worker takes it, instead of waiting for the run's timeout.
 */
export default class extends BaseSchema {
  protected tableName = 'workflow_runs'

  async up() {
    this.schema.alterTable(this.tableName, (table) => {
      table.string('claimed_by', 128).nullable()
      table.timestamp('lease_expires_at').nullable()
      // Expired leases are looked up by status every few seconds.
      table.index(['status', 'lease_expires_at'])
    })
  }

  async down() {
    this.schema.alterTable(this.tableName, (table) => {
      table.dropIndex(['status', 'lease_expires_at'])
      table.dropColumn('lease_expires_at')
      table.dropColumn('claimed_by')
    })
  }
}
