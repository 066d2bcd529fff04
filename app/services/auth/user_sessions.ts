import { DateTime } from 'luxon'
import string from '@adonisjs/core/helpers/string'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
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

/**
 * "Sign out of all devices", and an admin's reset of the second factor: every session of the
 * user ends, this one included. Inside the caller's transaction when given (SQLite has one
 * writer: a write beside an open transaction would wait for it).
 */
export async function closeAllSessions(userId: string, trx?: TransactionClientContract) {
  await UserSession.query({ client: trx }).where('user_id', userId).delete()
}

/**
 * Every session of the user but `keepId` ends: turning two-factor sign-in on keeps the
 * browser that did it and signs out those that never gave a code (docs/security.md).
 */
export async function closeOtherSessions(
  userId: string,
  keepId: unknown,
  trx?: TransactionClientContract
) {
  const query = UserSession.query({ client: trx }).where('user_id', userId)
  if (typeof keepId === 'string' && keepId) query.whereNot('id', keepId)
  await query.delete()
}
