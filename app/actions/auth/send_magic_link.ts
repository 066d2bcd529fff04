import { createHash } from 'node:crypto'
import { DateTime } from 'luxon'
import LoginToken from '#models/login_token'
import User from '#models/user'
import { appUrl } from '#config/app'
import { sendMail } from '#services/mailer'
import { newToken } from '#services/ids'
import { maySignUp, normaliseEmail, signupDisabledError } from '#actions/users/find_or_create_user'

export const MAGIC_LINK_TTL_MINUTES = 30

export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

/** Only same-site paths are kept, so a crafted link cannot send people elsewhere. */
export function safeRedirectPath(path: string | null | undefined) {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null
  return path.slice(0, 1024)
}

export default class SendMagicLink {
  /**
   * Mails a one-time sign-in link valid for 30 minutes. For an unknown e-mail the link
   * creates the account, unless sign-ups are disabled.
   */
  async handle(input: { email: string; name?: string | null; redirectPath?: string | null }) {
    const email = normaliseEmail(input.email)
    const exists = await User.findBy('email', email)
    if (!exists && !(await maySignUp(email))) throw signupDisabledError()

    const token = newToken(32)
    await LoginToken.create({
      email,
      tokenHash: hashToken(token),
      name: input.name?.trim() || null,
      redirectPath: safeRedirectPath(input.redirectPath),
      expiresAt: DateTime.now().plus({ minutes: MAGIC_LINK_TTL_MINUTES }),
    })
    const link = `${appUrl}/auth/magic/${token}`
    await sendMail({
      to: email,
      subject: exists ? 'Your sign-in link' : 'Finish creating your account',
      text:
        `${exists ? 'Sign in' : 'Create your account'} by opening this link:\n\n${link}\n\n` +
        `The link works once and expires in ${MAGIC_LINK_TTL_MINUTES} minutes. ` +
        'If you did not ask for it, you can ignore this e-mail.',
      html:
        `<p>${exists ? 'Sign in' : 'Create your account'} by clicking the link below.</p>` +
        `<p><a href="${link}">${exists ? 'Sign in' : 'Create my account'}</a></p>` +
        `<p>The link works once and expires in ${MAGIC_LINK_TTL_MINUTES} minutes.</p>`,
    })
    return { link }
  }
}
