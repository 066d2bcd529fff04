import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:signin-link [email] [--if-no-smtp]
 * Prints a one-time sign-in link (for the first ADMIN_EMAILS entry by default).
 * `npm start` calls it when no SMTP server is configured, so a newcomer can sign in at once.
 */
export default class UserSigninLink extends BaseCommand {
  static commandName = 'user:signin-link'
  static description = 'Print a one-time sign-in link'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'E-mail (default: first of ADMIN_EMAILS)', required: false })
  declare email?: string

  @flags.boolean({ description: 'Do nothing when SMTP is configured' })
  declare ifNoSmtp: boolean

  async run() {
    const { smtpConfigured } = await import('#services/mailer')
    const { adminEmails } = await import('#services/admins')
    const { appUrl } = await import('#config/app')
    if (this.ifNoSmtp && smtpConfigured()) return
    const email = this.email ?? adminEmails()[0]
    if (!email) {
      this.logger.info(
        `Open ${appUrl}/signin — with no SMTP server, sign-in links are printed in this log.`
      )
      return
    }
    const { default: SendMagicLink } = await import('#actions/auth/send_magic_link')
    const { link } = await new SendMagicLink().handle({ email })
    console.log('')
    console.log(
      `  No SMTP server configured: e-mails are printed in this log${smtpConfigured() ? '' : ''}.`
    )
    console.log(`  Sign in as ${email} (valid 30 minutes, once):`)
    console.log(`  ${link}`)
    console.log('')
  }
}
