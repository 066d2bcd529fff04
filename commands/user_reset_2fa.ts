import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:reset-2fa <email>
 * Turns off the two-factor sign-in of an account that lost its authenticator app and its
 * recovery codes (what /admin/workspaces does); audited with 'cli' as its author.
 */
export default class UserResetTwoFactor extends BaseCommand {
  static commandName = 'user:reset-2fa'
  static description = "Turn off an account's two-factor sign-in"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Account e-mail' })
  declare email: string

  async run() {
    const { default: User } = await import('#models/user')
    const { CLI_ACTOR } = await import('#actions/admin/administer_plans')
    const { resetTwoFactor } = await import('#actions/admin/reset_two_factor')
    const email = (this.email ?? '').trim().toLowerCase()
    const user = await User.query().whereRaw('lower(email) = ?', [email]).first()
    if (!user) {
      this.logger.error(`No account has the e-mail "${this.email}"`)
      this.exitCode = 1
      return
    }
    if (await resetTwoFactor(CLI_ACTOR, user)) {
      this.logger.success(
        `Two-factor sign-in of ${user.email} is off; they sign in with the link alone`
      )
    } else {
      this.logger.info(`${user.email} had no two-factor sign-in: nothing changed`)
    }
  }
}
