import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Where a knowledge store keeps its chunks (docs/knowledge.md, "Stores in Pinecone"): this
 * app's database (`local`, the default) or a Pinecone index with integrated embedding. A
 * Pinecone store keeps its index in `index_name` and its namespace here, and searches with
 * the workspace credentials named here.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('knowledge_stores', (table) => {
      table.string('backend', 16).notNullable().defaultTo('local')
      table
        .string('pinecone_credentials_id', 32)
        .nullable()
        .references('id')
        .inTable('credentials')
        .onDelete('SET NULL')
      table.string('pinecone_namespace', 128).nullable()
    })
  }

  async down() {
    this.schema.alterTable('knowledge_stores', (table) => {
      table.dropForeign(['pinecone_credentials_id'])
      table.dropColumn('pinecone_namespace')
      table.dropColumn('pinecone_credentials_id')
      table.dropColumn('backend')
    })
  }
}
