import { DateTime } from 'luxon'
import string from '@adonisjs/core/helpers/string'
import db from '@adonisjs/lucid/services/db'
import UserSession from '#models/user_session'
import { SESSION_AGE } from '#config/session'

/*
| Server-side records of browser sessions (docs/security.md, "Sessions"). The session cookie
| is signed and carries everything else; the record is what a sign-out removes, so a copy of
| the cookie taken before stops working on the next request.
*/

const AGE_SECONDS = string.seconds.parse(SESSION_AGE)
/** A record used again after this long is extended: at most one write a day per session. */
const REFRESH_AFTER_SECONDS = 24 * 60 * 60

export async function openSession(userId: string) {
  // Expired records of this user go when they sign in again.
  await UserSession.query()
    .where('user_id', userId)
    .where('expires_at', '<', DateTime.now().toFormat(db.connection().dialect.dateTimeFormat))
    .delete()
  return UserSession.create({ userId, expiresAt: DateTime.now().plus({ seconds: AGE_SECONDS }) })
}

/** Whether the record exists, belongs to the user and has not expired; extends it when due. */
export async function isSessionLive(id: unknown, userId: string) {
  if (typeof id !== 'string' || !id) return false
  const session = await UserSession.find(id)
  if (!session || session.userId !== userId) return false
  const left = session.expiresAt.diffNow('seconds').seconds
  if (left <= 0) {
    await session.delete()
    return false
  }
  if (AGE_SECONDS - left > REFRESH_AFTER_SECONDS) {
    session.expiresAt = DateTime.now().plus({ seconds: AGE_SECONDS })
    await session.save()
  }
  return true
}

export async function closeSession(id: unknown) {
  if (typeof id !== 'string' || !id) return
  await UserSession.query().where('id', id).delete()
}

/** "Sign out of all devices": every session of the user ends, this one included. */
export async function closeAllSessions(userId: string) {
  await UserSession.query().where('user_id', userId).delete()
}
