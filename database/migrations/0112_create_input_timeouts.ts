import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Reply timeouts taken (docs/bots.md, "Reply timeout"): one row per input left without an
 * answer, so that results and drop-off analytics count visitors who timed out per block.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('input_timeouts', (table) => {
      table.increments('id')
      table
        .string('result_id', 32)
        .notNullable()
        .references('id')
        .inTable('results')
        .onDelete('CASCADE')
      table.string('block_id', 64).notNullable()
      table.string('group_id', 64).notNullable()
      table.timestamp('created_at').notNullable()
      table.index(['result_id'])
    })
  }

  async down() {
    this.schema.dropTable('input_timeouts')
  }
}
