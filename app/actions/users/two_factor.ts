import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import type { TwoFactorSetupDto, TwoFactorStatusDto } from '#shared/two_factor'
import {
  checkTotp,
  clearSecondFactor,
  newTotpSecret,
  normaliseCode,
  openSecret,
  otpauthQrDataUrl,
  otpauthUri,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  sealSecret,
  limitedCodeCheck,
  verifySecondFactor,
} from '#services/auth/two_factor'
import { closeOtherSessions } from '#services/auth/user_sessions'

/*
| A person's own second factor, from account settings (docs/security.md, "Two-factor
| sign-in"): start a setup (a new secret, not yet in force), confirm it with a code from the
| app (it is then on, and ten recovery codes are shown once), regenerate the recovery codes
| and turn it off; the last two need a current code or a recovery code.
*/

export async function twoFactorStatus(user: User): Promise<TwoFactorStatusDto> {
  const enabled = !!user.twoFactorEnabledAt
  let setup: TwoFactorSetupDto | null = null
  if (!enabled && user.twoFactorSecret) {
    const secret = openSecret(user.twoFactorSecret)
    const uri = otpauthUri(user.email, secret)
    setup = { secret, uri, qr: await otpauthQrDataUrl(uri) }
  }
  return {
    enabled,
    enabledAt: user.twoFactorEnabledAt?.toISO() ?? null,
    recoveryCodesLeft: enabled ? await recoveryCodesLeft(user.id) : 0,
    setup,
  }
}

const alreadyOn = () =>
  new AppError('Two-factor sign-in is already on', {
    status: 409,
    description: 'Turn it off first to set up another authenticator app.',
  })

/** A fresh secret for the authenticator app; nothing changes at sign-in until confirmed. */
export async function startTwoFactorSetup(user: User) {
  if (user.twoFactorEnabledAt) throw alreadyOn()
  user.twoFactorSecret = sealSecret(newTotpSecret())
  user.twoFactorLastStep = null
  await user.save()
}

export async function cancelTwoFactorSetup(user: User) {
  if (user.twoFactorEnabledAt) return
  user.twoFactorSecret = null
  await user.save()
}

/**
 * The first code from the app turns the second factor on; returns the recovery codes. The
 * person's other sessions end with it (all but `keepSessionId`, the record of the browser that
 * confirmed): they were opened without a code, and whoever holds one of them should not keep
 * what the second factor is now meant to refuse (docs/security.md, "Two-factor sign-in").
 */
export async function confirmTwoFactorSetup(user: User, code: string, keepSessionId?: unknown) {
  if (user.twoFactorEnabledAt) throw alreadyOn()
  if (!user.twoFactorSecret) {
    throw new AppError('Start the setup again', {
      status: 409,
      description: 'The setup was cancelled or has not been started.',
      field: 'code',
    })
  }
  const secret = openSecret(user.twoFactorSecret)
  await limitedCodeCheck(
    user.id,
    async () => ((await checkTotp(secret, normaliseCode(code), user)) ? true : null),
    { wrongHint: 'Type the 6-digit code your authenticator app shows now.' }
  )
  return db.transaction(async (trx) => {
    user.useTransaction(trx)
    user.twoFactorEnabledAt = DateTime.now()
    await user.save()
    await closeOtherSessions(user.id, keepSessionId, trx)
    return replaceRecoveryCodes(user.id, trx)
  })
}

export async function regenerateRecoveryCodes(user: User, code: string) {
  await verifySecondFactor(user, code)
  return db.transaction((trx) => replaceRecoveryCodes(user.id, trx))
}

export async function disableTwoFactor(user: User, code: string) {
  await verifySecondFactor(user, code)
  await db.transaction((trx) => clearSecondFactor(user, trx))
}
