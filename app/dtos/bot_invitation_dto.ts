import type BotInvitation from '#models/bot_invitation'

export function toBotInvitationDto(invitation: BotInvitation) {
  return {
    id: invitation.id,
    botId: invitation.botId,
    email: invitation.email,
    type: invitation.type,
    createdBy: invitation.createdBy,
    createdAt: invitation.createdAt.toISO()!,
  }
}

export type BotInvitationDto = ReturnType<typeof toBotInvitationDto>
