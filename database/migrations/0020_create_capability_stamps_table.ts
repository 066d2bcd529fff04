import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * One counter per kind of capability data (the marketplace's plugin switches, plans).
 * Every process caches what it derives from that data and re-reads it when the counter
 * moved, so an admin change reaches every process at its next check
 * (docs/architecture.md, "Capabilities").
 */
export default class extends BaseSchema {
  protected tableName = 'capability_stamps'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.string('id', 32).primary()
      table.bigInteger('version').notNullable().defaultTo(0)
    })
    this.defer(async (db) => {
      await db.table(this.tableName).insert({ id: 'capabilities', version: 0 })
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
