import type { HttpContext } from '@adonisjs/core/http'
import AppError from '#exceptions/app_error'
import Workspace from '#models/workspace'
import { findBotFor } from '#actions/bots/bot_access'
import { ConnectTelegram } from '#actions/bots/connect_telegram'
import { ConnectWhatsApp } from '#actions/bots/connect_whats_app'
import { DisconnectChannel } from '#actions/bots/disconnect_channel'
import { channelStatuses } from '#actions/bots/bot_channels'
import { connectTelegramValidator, connectWhatsAppValidator } from '#validators/bot_channel'
import type { ChannelName } from '#models/bot_channel'

function channelOf(param: string): ChannelName {
  if (param === 'telegram' || param === 'whatsapp') return param
  throw AppError.notFound('Unknown channel')
}

/** A bot's messaging channels, from its settings (docs/channels.md). */
export default class ChannelsController {
  /** GET /api/v1/bots/:id/channels: what is connected (never the secrets). */
  async index({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'read')
    const channels = await channelStatuses(bot)
    // The verify token is for whoever sets up the Meta app, not for viewers.
    if (mode !== 'write') for (const status of channels) delete status.verifyToken
    return response.ok({ channels })
  }

  /** PUT /api/v1/bots/:id/channels/:channel: connects, or changes the connection. */
  async update({ auth, params, request, response }: HttpContext) {
    const channel = channelOf(params.channel)
    const { bot } = await findBotFor(auth.user!, params.id, 'write')
    if (channel === 'telegram') {
      const input = await request.validateUsing(connectTelegramValidator)
      return response.ok(await new ConnectTelegram().handle(bot, input))
    }
    const input = await request.validateUsing(connectWhatsAppValidator)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    return response.ok(await new ConnectWhatsApp().handle(auth.user!, workspace, bot, input))
  }

  /** DELETE /api/v1/bots/:id/channels/:channel */
  async destroy({ auth, params, response }: HttpContext) {
    const channel = channelOf(params.channel)
    const { bot } = await findBotFor(auth.user!, params.id, 'write')
    await new DisconnectChannel().handle(bot, channel)
    return response.noContent()
  }
}
