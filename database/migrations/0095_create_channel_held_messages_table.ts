import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Messages of a channel contact held for a moment (docs/channels.md, "Several files at
 * once"): the parts of a Telegram album or a burst of WhatsApp files wait here, then one
 * job answers the question once with all of them. Rows answered are kept (done_ms) so a
 * late part of an album already answered is recognised, and pruned with the delivery ids.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('channel_held_messages', (table) => {
      table.increments('id')
      table
        .string('channel_id', 32)
        .notNullable()
        .references('id')
        .inTable('bot_channels')
        .onDelete('CASCADE')
      table.string('contact_id', 191).notNullable()
      table.string('delivery_id', 191).notNullable()
      /** Telegram's media_group_id: the parts of one album share it. */
      table.string('media_group_id', 191).nullable()
      /** The message as JSON: text, contact, and the platform's reference of its file. */
      table.text('message').notNullable()
      /** Epoch milliseconds: the window is counted from the newest part. */
      table.bigInteger('held_ms').notNullable()
      /** The job run that took the row, and when (a run that died is taken over later). */
      table.string('claim', 32).nullable()
      table.bigInteger('claimed_ms').nullable()
      table.bigInteger('done_ms').nullable()
      table.index(['channel_id', 'contact_id'])
      table.index(['held_ms'])
    })
  }

  async down() {
    this.schema.dropTable('channel_held_messages')
  }
}
