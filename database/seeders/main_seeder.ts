import { BaseSeeder } from '@adonisjs/lucid/seeders'
import { seedPlans } from '#services/plans'
import { seedAiPrices } from '#services/ai/credits'

/** Idempotent: `npm start` runs it at every start. */
export default class MainSeeder extends BaseSeeder {
  async run() {
    await seedPlans()
    await seedAiPrices()
  }
}
