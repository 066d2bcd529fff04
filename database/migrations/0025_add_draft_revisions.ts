import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A draft's revision (docs/editor.md "Saving from two places"): a counter raised by every
 * write of a bot's or workflow's content. An editor sends the revision it loaded with its
 * save, and the server refuses the save (409) when another tab, the copilot or a restore
 * wrote in between, instead of letting the last writer win.
 */
export default class extends BaseSchema {
  async up() {
    for (const tableName of ['bots', 'workflows']) {
      this.schema.alterTable(tableName, (table) => {
        table.integer('revision').notNullable().defaultTo(0)
      })
    }
  }

  async down() {
    for (const tableName of ['bots', 'workflows']) {
      this.schema.alterTable(tableName, (table) => {
        table.dropColumn('revision')
      })
    }
  }
}
