import { createHmac, randomInt } from 'node:crypto'
import { DateTime } from 'luxon'
import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import env from '#start/env'
import { appKey } from '#config/app'
import User from '#models/user'
import TwoFactorRecoveryCode from '#models/two_factor_recovery_code'
import AppError from '#exceptions/app_error'
import { decryptCredentials, encryptCredentials } from '#plugins/vault'

/*
| Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, what authenticator apps
| use) and single-use recovery codes (docs/security.md, "Two-factor sign-in").
*/

export const TOTP_ISSUER = 'Flowcraft'
export const RECOVERY_CODE_COUNT = 10
/** One step either side of now: a phone clock a little off, or a code typed as it changed. */
const EPOCH_TOLERANCE_SECONDS = 30

/** The secret, encrypted at rest like credentials (AES-256-GCM, ENCRYPTION_SECRET). */
export function sealSecret(secret: string) {
  return JSON.stringify(encryptCredentials({ secret }, env.get('ENCRYPTION_SECRET')))
}

export function openSecret(sealed: string): string {
  return decryptCredentials<{ secret: string }>(JSON.parse(sealed), env.get('ENCRYPTION_SECRET'))
    .secret
}

export function newTotpSecret() {
  return generateSecret()
}

export function otpauthUri(email: string, secret: string) {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret })
}

/** The QR code of the otpauth URI, drawn with the library the QR code block uses. */
export function otpauthQrDataUrl(uri: string) {
  return QRCode.toDataURL(uri, { margin: 1, width: 224, errorCorrectionLevel: 'M' })
}

/** What the person typed: digits, or a recovery code (letters, digits and dashes). */
export function normaliseCode(input: string) {
  return input.replace(/[\s-]/g, '').toLowerCase()
}

const isTotpShape = (code: string) => /^\d{6}$/.test(code)

/** Recovery codes are random enough that a keyed hash (APP_KEY) stands for them at rest. */
function hashRecoveryCode(code: string) {
  return createHmac('sha256', appKey.release()).update(normaliseCode(code)).digest('hex')
}

/** Letters and digits that cannot be read for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

function newRecoveryCode() {
  let raw = ''
  for (let i = 0; i < 10; i++) raw += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
  return `${raw.slice(0, 5)}-${raw.slice(5)}`
}

/** Replaces the user's recovery codes with ten new ones; the plain codes are shown once. */
export async function replaceRecoveryCodes(userId: string, trx: TransactionClientContract) {
  await TwoFactorRecoveryCode.query({ client: trx }).where('user_id', userId).delete()
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await TwoFactorRecoveryCode.createMany(
    codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })),
    { client: trx }
  )
  return codes
}

export async function recoveryCodesLeft(userId: string) {
  const row = await TwoFactorRecoveryCode.query()
    .where('user_id', userId)
    .whereNull('used_at')
    .count('* as total')
    .first()
  return Number(row?.$extras.total ?? 0)
}

/**
 * Checks a TOTP code against a secret. With `user`, the code's time step is recorded in the
 * same conditional write that accepts it, so the same code (or an older one) is refused
 * afterwards, even by a request racing this one.
 */
export async function checkTotp(secret: string, code: string, user?: User): Promise<boolean> {
  if (!isTotpShape(code)) return false
  const result = await verify({
    secret,
    token: code,
    epochTolerance: EPOCH_TOLERANCE_SECONDS,
    ...(user?.twoFactorLastStep ? { afterTimeStep: user.twoFactorLastStep } : {}),
  }).catch(() => null)
  if (!result?.valid || !('timeStep' in result)) return false
  if (!user) return true
  const updated = await db
    .from('users')
    .where('id', user.id)
    .where((q) =>
      q.whereNull('two_factor_last_step').orWhere('two_factor_last_step', '<', result.timeStep)
    )
    .update({ two_factor_last_step: result.timeStep })
  if (Number(Array.isArray(updated) ? updated[0] : updated) < 1) return false
  user.twoFactorLastStep = result.timeStep
  return true
}

/** Spends one unused recovery code; a conditional write, so it works exactly once. */
async function spendRecoveryCode(userId: string, code: string) {
  const updated = await db
    .from('two_factor_recovery_codes')
    .where('user_id', userId)
    .where('code_hash', hashRecoveryCode(code))
    .whereNull('used_at')
    .update({ used_at: DateTime.now().toFormat(db.connection().dialect.dateTimeFormat) })
  return Number(Array.isArray(updated) ? updated[0] : updated) > 0
}

/**
 * Code attempts per account in 15 minutes (TWO_FACTOR_RATE_LIMIT, default 5), counted
 * across the sign-in page and the account settings; a right code clears the count.
 */
function attemptsLimiter() {
  return limiter.use({ requests: env.get('TWO_FACTOR_RATE_LIMIT') ?? 5, duration: '15 mins' })
}

export const twoFactorLimitKey = (userId: string) => `two_factor_${userId}`

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'That code is not right',
  wrongCodeHint: 'Type the 6-digit code your authenticator app shows now, or a recovery code.',
  tooMany: 'Too many codes tried',
  tooManyHint: 'Wait 15 minutes, then try again.',
} as const

/**
 * Runs one code check within the attempts limit: throws a field error on `field` when the
 * limit is spent or the check fails; a right code clears the count.
 */
export async function limitedCodeCheck<T>(
  userId: string,
  check: () => Promise<T | null>,
  options: { field?: string; wrongHint?: string } = {}
): Promise<T> {
  const field = options.field ?? 'code'
  const attempts = attemptsLimiter()
  const key = twoFactorLimitKey(userId)
  try {
    await attempts.consume(key)
  } catch (error) {
    if (!(error instanceof limiterErrors.E_TOO_MANY_REQUESTS)) throw error
    throw new AppError(TWO_FACTOR_MESSAGES.tooMany, {
      status: 429,
      code: 'E_TOO_MANY_REQUESTS',
      description: TWO_FACTOR_MESSAGES.tooManyHint,
      field,
    })
  }
  const result = await check()
  if (result === null) {
    throw new AppError(TWO_FACTOR_MESSAGES.wrongCode, {
      status: 422,
      code: 'E_WRONG_CODE',
      description: options.wrongHint ?? TWO_FACTOR_MESSAGES.wrongCodeHint,
      field,
    })
  }
  await attempts.delete(key)
  return result
}

/**
 * Checks what the person typed (a current TOTP code or an unused recovery code) against
 * their enabled second factor, within the attempts limit; returns which kind it was.
 */
export async function verifySecondFactor(user: User, input: string, field = 'code') {
  const sealed = user.twoFactorSecret
  if (!user.twoFactorEnabledAt || !sealed) {
    throw new AppError('Two-factor sign-in is not on', { status: 409, field })
  }
  return limitedCodeCheck(
    user.id,
    async () => {
      const code = normaliseCode(input)
      if (isTotpShape(code))
        return (await checkTotp(openSecret(sealed), code, user)) ? 'totp' : null
      if (code.length === 10 && (await spendRecoveryCode(user.id, code))) return 'recovery'
      return null
    },
    { field }
  ) as Promise<'totp' | 'recovery'>
}

/** Turns the second factor off and forgets its secret and recovery codes. */
export async function clearSecondFactor(user: User, trx: TransactionClientContract) {
  user.useTransaction(trx)
  user.twoFactorSecret = null
  user.twoFactorEnabledAt = null
  user.twoFactorLastStep = null
  await user.save()
  await TwoFactorRecoveryCode.query({ client: trx }).where('user_id', user.id).delete()
}
