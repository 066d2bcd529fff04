import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import LoginToken from '#models/login_token'
import AppError from '#exceptions/app_error'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import { hashToken } from '#actions/auth/send_magic_link'

export default class ConsumeMagicLink {
  /** Marks the token used (once only) and returns the user it signs in. */
  async handle(token: string) {
    const loginToken = await db.transaction(async (trx) => {
      const row = await LoginToken.query({ client: trx })
        .where('token_hash', hashToken(token))
        .forUpdate()
        .first()
      if (!row || row.usedAt || row.expiresAt < DateTime.now()) return null
      row.usedAt = DateTime.now()
      await row.useTransaction(trx).save()
      return row
    })
    if (!loginToken) {
      throw new AppError('This sign-in link is invalid or has expired', {
        status: 400,
        code: 'E_INVALID_LINK',
        description: 'Ask for a new link below.',
      })
    }
    const { user, created } = await new FindOrCreateUser().handle(loginToken.email, {
      name: loginToken.name,
    })
    user.lastSignedInAt = DateTime.now()
    if (!user.emailVerifiedAt) user.emailVerifiedAt = DateTime.now()
    await user.save()
    return { user, created, redirectPath: loginToken.redirectPath }
  }
}
