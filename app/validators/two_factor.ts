import vine from '@vinejs/vine'

/** A 6-digit code from the authenticator app, or a recovery code (spaces and dashes allowed). */
export const twoFactorCodeValidator = vine.compile(
  vine.object({
    code: vine.string().trim().minLength(1).maxLength(64),
  })
)
