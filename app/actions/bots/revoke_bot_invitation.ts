import Bot from '#models/bot'
import { findInvitationOf } from './bot_invitations.js'

export class RevokeBotInvitation {
  async handle(bot: Bot, invitationId: string) {
    const invitation = await findInvitationOf(bot, invitationId)
    await invitation.delete()
  }
}
