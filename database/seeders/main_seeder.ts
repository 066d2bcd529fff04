import { BaseSeeder } from '@adonisjs/lucid/seeders'
import { seedPlans } from '#services/plans'

/** Idempotent: `npm start` runs it at every start. */
export default class MainSeeder extends BaseSeeder {
  async run() {
    await seedPlans()
  }
}
