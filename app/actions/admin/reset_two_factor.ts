import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import { audit, type AdminActor } from '#actions/admin/administer_plans'
import { clearSecondFactor } from '#services/auth/two_factor'

/**
 * An instance admin turns off a person's second factor (lost phone and recovery codes),
 * from /admin/workspaces or `node ace user:reset-2fa`; audited like the other admin changes.
 * Returns false when it was not on.
 */
export async function resetTwoFactor(actor: AdminActor, user: User) {
  if (!user.twoFactorEnabledAt && !user.twoFactorSecret) return false
  const wasOn = !!user.twoFactorEnabledAt
  await db.transaction(async (trx) => {
    await clearSecondFactor(user, trx)
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
