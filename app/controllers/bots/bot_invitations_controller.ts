import type { HttpContext } from '@adonisjs/core/http'
import { findBotFor } from '#actions/bots/bot_access'
import { findBotToShare } from '#actions/bots/bot_invitations'
import { InviteToBot } from '#actions/bots/invite_to_bot'
import { ListBotInvitations } from '#actions/bots/list_bot_invitations'
import { RevokeBotInvitation } from '#actions/bots/revoke_bot_invitation'
import { UpdateBotInvitation } from '#actions/bots/update_bot_invitation'
import { toBotInvitationDto } from '#dtos/bot_invitation_dto'
import {
  createBotInvitationValidator,
  updateBotInvitationValidator,
} from '#validators/bot_invitation'

/** JSON for the Share popover's invitations (session + XSRF). */
export default class BotInvitationsController {
  async index({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.botId)
    const invitations = await new ListBotInvitations().handle(bot)
    return response.ok({ invitations: invitations.map(toBotInvitationDto) })
  }

  async store({ auth, params, request, response }: HttpContext) {
    const bot = await findBotToShare(auth.user!, params.botId)
    const payload = await request.validateUsing(createBotInvitationValidator)
    const invitation = await new InviteToBot().handle(auth.user!, bot, payload)
    return response.created({ invitation: toBotInvitationDto(invitation) })
  }

  async update({ auth, params, request, response }: HttpContext) {
    const bot = await findBotToShare(auth.user!, params.botId)
    const { type } = await request.validateUsing(updateBotInvitationValidator)
    const invitation = await new UpdateBotInvitation().handle(bot, params.id, type)
    return response.ok({ invitation: toBotInvitationDto(invitation) })
  }

  async destroy({ auth, params, response }: HttpContext) {
    const bot = await findBotToShare(auth.user!, params.botId)
    await new RevokeBotInvitation().handle(bot, params.id)
    return response.noContent()
  }
}
