import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import { audit, type AdminActor } from '#actions/admin/administer_plans'
import { clearSecondFactor } from '#services/auth/two_factor'
import { closeAllSessions } from '#services/auth/user_sessions'

/**
 * An instance admin turns off a person's second factor (lost phone and recovery codes),
 * from /admin/workspaces or `node ace user:reset-2fa`; audited like the other admin changes.
 * A reset is made when the account or its device is thought to be in other hands, so every
 * open session of the person ends with it: the records go, and the guard refuses each copy
 * of the cookie on its next request, whatever the session store (docs/security.md,
 * "Two-factor sign-in"). Returns false when it was not on (nothing changes then).
 */
export async function resetTwoFactor(actor: AdminActor, user: User) {
  if (!user.twoFactorEnabledAt && !user.twoFactorSecret) return false
  const wasOn = !!user.twoFactorEnabledAt
  await db.transaction(async (trx) => {
    await clearSecondFactor(user, trx)
    await closeAllSessions(user.id, trx)
    await audit(
      trx,
      actor,
      'reset_2fa',
      { type: 'user', id: user.id, label: user.email },
      { wasOn }
    )
  })
  return true
}
