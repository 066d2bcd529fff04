import { BaseSchema } from '@adonisjs/lucid/schema'

/** The language a chat ran in (bots in several languages, docs/editor.md "Languages"). */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('results', (table) => {
      table.string('language', 35).nullable()
    })
  }

  async down() {
    this.schema.alterTable('results', (table) => {
      table.dropColumn('language')
    })
  }
}
