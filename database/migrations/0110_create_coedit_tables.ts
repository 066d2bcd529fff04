import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Shared drafts (docs/editor.md "Editing together"): one row per bot or workflow being
 * edited live, with the draft revision its Yjs state matches, and the Yjs updates of that
 * draft in the order they arrived. Any web process rebuilds the merged document from them;
 * updates commute, so two processes appending at once lose nothing.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('coedit_documents', (table) => {
      table.increments('id')
      table.string('document_type', 16).notNullable()
      table.string('document_id', 64).notNullable()
      /** The draft revision the Yjs state holds: another one means the draft was written elsewhere. */
      table.integer('revision').notNullable()
      /** The last update written into the draft (a newer one is still to write). */
      table.bigInteger('written_update_id').notNullable().defaultTo(0)
      /**
       * The draft as of `revision` (JSON): a draft written elsewhere is merged with what it
       * changed from this one, so edits not written yet are kept.
       */
      table.text('draft', 'longtext').notNullable()
      table.timestamp('created_at').notNullable()
      table.unique(['document_type', 'document_id'])
    })
    this.schema.createTable('coedit_updates', (table) => {
      table.bigIncrements('id')
      table.string('document_type', 16).notNullable()
      table.string('document_id', 64).notNullable()
      /** A Yjs update, base64. */
      table.text('payload', 'longtext').notNullable()
      table.index(['document_type', 'document_id', 'id'])
    })
  }

  async down() {
    this.schema.dropTable('coedit_updates')
    this.schema.dropTable('coedit_documents')
  }
}
