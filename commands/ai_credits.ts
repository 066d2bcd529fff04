import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace ai:credits <email> <amount>
 * Adds AI credits to an account (a self-hoster's way to top up without the admin page) and
 * prints the new balance. A negative amount takes credits back.
 */
export default class AiCredits extends BaseCommand {
  static commandName = 'ai:credits'
  static description = "Add AI credits to a user's balance and print the new balance"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'E-mail of the user' })
  declare email: string

  @args.string({ description: 'Credits to add, e.g. 25 or 0.5 (negative to remove)' })
  declare amount: string

  async run() {
    const { default: User } = await import('#models/user')
    const { grantAiCredits } = await import('#services/ai/credits')
    const amount = (this.amount ?? '').trim()
    if (!/^-?\d+(\.\d+)?$/.test(amount) || Number(amount) === 0) {
      return this.fail(`The amount must be a non-zero number, e.g. 25 or 0.5 (got "${amount}")`)
    }
    const email = (this.email ?? '').trim().toLowerCase()
    const user = await User.query().whereRaw('lower(email) = ?', [email]).first()
    if (!user) return this.fail(`No user with the e-mail ${email}`)
    const credits = await grantAiCredits(user.id, amount)
    this.logger.info(`${user.email} now has ${credits} AI credits`)
  }

  private fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
