import vine from '@vinejs/vine'

export const signInValidator = vine.compile(
  vine.object({
    email: vine.string().trim().email().maxLength(254),
    redirectPath: vine.string().trim().maxLength(1024).optional(),
  })
)

export const registerValidator = vine.compile(
  vine.object({
    email: vine.string().trim().email().maxLength(254),
    name: vine.string().trim().maxLength(255).optional(),
    redirectPath: vine.string().trim().maxLength(1024).optional(),
  })
)
