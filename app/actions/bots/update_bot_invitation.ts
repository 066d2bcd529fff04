import Bot from '#models/bot'
import { type BotInvitationType } from '#models/bot_invitation'
import { findInvitationOf } from './bot_invitations.js'

export class UpdateBotInvitation {
  async handle(bot: Bot, invitationId: string, type: BotInvitationType) {
    const invitation = await findInvitationOf(bot, invitationId)
    invitation.type = type
    await invitation.save()
    return invitation
  }
}
