import { BaseSchema } from '@adonisjs/lucid/schema'

/** When a user dismissed the onboarding checklist (docs/onboarding.md); null: still shown. */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.timestamp('onboarding_checklist_dismissed_at').nullable()
    })
  }

  async down() {
    this.schema.alterTable('users', (table) => {
      table.dropColumn('onboarding_checklist_dismissed_at')
    })
  }
}
