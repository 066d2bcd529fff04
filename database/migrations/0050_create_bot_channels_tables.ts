import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Messaging channels of published bots (docs/channels.md): the connection of a bot to a
 * Telegram bot or a WhatsApp number (its secrets encrypted like credentials), the chat
 * session each contact is in, and the platform delivery ids already taken.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('bot_channels', (table) => {
      table.string('id', 32).primary()
      table.string('bot_id', 32).notNullable().references('id').inTable('bots').onDelete('CASCADE')
      /** 'telegram' or 'whatsapp'. */
      table.string('channel', 16).notNullable()
      /** AES-256-GCM of the channel's secrets (app/plugins/vault.ts). */
      table.text('iv').notNullable()
      table.text('data').notNullable()
      /** Telegram's secret_token / WhatsApp's verify token: proves a call comes from the platform. */
      table.string('webhook_secret', 64).notNullable()
      /** The URL registered with the platform (Telegram), null while none is. */
      table.text('webhook_url').nullable()
      /** The platform's last refusal, shown in the bot's settings. */
      table.text('last_error').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.unique(['bot_id', 'channel'])
    })

    // The session a contact's next message continues (sessions expire on their own).
    this.schema.createTable('channel_contacts', (table) => {
      table
        .string('channel_id', 32)
        .notNullable()
        .references('id')
        .inTable('bot_channels')
        .onDelete('CASCADE')
      table.string('contact_id', 191).notNullable()
      table.string('session_id', 32).notNullable()
      table.timestamp('updated_at').notNullable()
      table.primary(['channel_id', 'contact_id'])
    })

    // Platforms send a message again when our answer was slow or lost, with the same id.
    this.schema.createTable('channel_deliveries', (table) => {
      table
        .string('channel_id', 32)
        .notNullable()
        .references('id')
        .inTable('bot_channels')
        .onDelete('CASCADE')
      table.string('delivery_id', 191).notNullable()
      table.timestamp('created_at').notNullable().index()
      table.primary(['channel_id', 'delivery_id'])
    })
  }

  async down() {
    this.schema.dropTable('channel_deliveries')
    this.schema.dropTable('channel_contacts')
    this.schema.dropTable('bot_channels')
  }
}
