import vine from '@vinejs/vine'
import { BOT_INVITATION_TYPES } from '#models/bot_invitation'

export const createBotInvitationValidator = vine.compile(
  vine.object({
    email: vine.string().trim().email().maxLength(254),
    type: vine.enum(BOT_INVITATION_TYPES).optional(),
  })
)

export const updateBotInvitationValidator = vine.compile(
  vine.object({
    type: vine.enum(BOT_INVITATION_TYPES),
  })
)
