import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('workspaces', (table) => {
      table.string('id', 32).primary()
      table.string('name', 255).notNullable()
      table.string('icon', 1024).nullable()
      table.string('plan', 32).notNullable().defaultTo('FREE')
      table.timestamp('plan_ends_at').nullable()
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.string('stripe_id', 255).nullable()
      table.boolean('is_suspended').notNullable().defaultTo(false)
      table.boolean('is_past_due').notNullable().defaultTo(false)
      table.boolean('is_verified').notNullable().defaultTo(false)
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
    })

    this.schema.createTable('workspace_members', (table) => {
      table.increments('id')
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table
        .string('user_id', 32)
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('role', 16).notNullable()
      table.timestamp('created_at').notNullable()
      table.unique(['workspace_id', 'user_id'])
    })

    this.schema.createTable('workspace_invitations', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table.string('email', 254).notNullable().index()
      table.string('role', 16).notNullable()
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.timestamp('created_at').notNullable()
      table.unique(['workspace_id', 'email'])
    })
  }

  async down() {
    this.schema.dropTableIfExists('workspace_invitations')
    this.schema.dropTableIfExists('workspace_members')
    this.schema.dropTableIfExists('workspaces')
  }
}
