import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Per-user folder sharing (docs/folder_sharing.md): a folder is visible to every member
 * (the default) or, once restricted, to the workspace's admins, the member who created it
 * and the members it is shared with, each with view or edit access.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('folders', (table) => {
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.boolean('is_restricted').notNullable().defaultTo(false)
    })

    this.schema.createTable('folder_shares', (table) => {
      table.string('id', 32).primary()
      table
        .string('folder_id', 32)
        .notNullable()
        .references('id')
        .inTable('folders')
        .onDelete('CASCADE')
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      // 'view' or 'edit'
      table.string('access', 8).notNullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.unique(['folder_id', 'user_id'])
      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('folder_shares')
    this.schema.alterTable('folders', (table) => {
      table.dropForeign(['created_by'])
      table.dropColumn('created_by')
      table.dropColumn('is_restricted')
    })
  }
}
