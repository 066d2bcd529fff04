import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import BotChannel from '#models/bot_channel'
import { channelSecrets } from '#services/channels/channel_secrets'
import { planFor } from '#services/capabilities'
import { receiveChannelMessage } from '#services/channels/conversation'
import { sendChannelReply } from '#services/channels/replies'
import {
  TELEGRAM_SECRET_HEADER,
  call,
  incomingOfUpdate,
  sameSecret,
  type TelegramSecrets,
} from '#services/channels/telegram'
import {
  incomingOfPayload,
  validSignature,
  type WhatsAppSecrets,
} from '#services/channels/whatsapp'
import Bot from '#models/bot'

/**
 * The platforms' calls to a bot's channel (docs/channels.md). The turn runs within the
 * call, so its messages are sent before the answer; a turn that fails answers 500 with its
 * delivery forgotten, so the platform's retry takes it again. Files sent at once are held
 * and answered together by a job ("Several files at once").
 */
export default class ChannelWebhooksController {
  private async channel(id: string, channel: 'telegram' | 'whatsapp') {
    return BotChannel.query().where({ id, channel }).first()
  }

  /** POST /api/v1/channels/telegram/:id: an update, with the secret token of setWebhook. */
  async telegram({ params, request, response }: HttpContext) {
    const record = await this.channel(params.id, 'telegram')
    if (!record) return response.notFound({ error: 'Unknown channel' })
    if (!sameSecret(request.header(TELEGRAM_SECRET_HEADER), record.webhookSecret)) {
      return response.unauthorized({ error: 'Invalid secret token' })
    }
    const secrets = channelSecrets<TelegramSecrets>(record)
    const incoming = incomingOfUpdate(request.body(), secrets)
    if (!incoming) return response.ok({ ok: true, ignored: true })
    if (incoming.callbackQueryId) {
      // Stops the spinner on the button; the answer itself follows as messages.
      await call(secrets, 'answerCallbackQuery', {
        callback_query_id: incoming.callbackQueryId,
      }).catch((error) => logger.warn({ err: error }, 'Telegram refused answerCallbackQuery'))
    }
    const outcome = await receiveChannelMessage(record, incoming)
    if (outcome.kind !== 'reply') return response.ok({ ok: true, [outcome.kind]: true })
    await sendChannelReply(record, incoming.chatId, outcome)
    return response.ok({ ok: true })
  }

  /** GET /api/v1/channels/whatsapp/:id: Meta's subscription handshake. */
  async whatsappVerify({ params, request, response }: HttpContext) {
    const record = await this.channel(params.id, 'whatsapp')
    const query = request.qs()
    if (
      !record ||
      query['hub.mode'] !== 'subscribe' ||
      !sameSecret(String(query['hub.verify_token'] ?? ''), record.webhookSecret)
    ) {
      return response.forbidden('Verification failed')
    }
    response.header('Content-Type', 'text/plain; charset=utf-8')
    return response.ok(String(query['hub.challenge'] ?? ''))
  }

  /** POST /api/v1/channels/whatsapp/:id: messages (and statuses), signed with the app secret. */
  async whatsapp({ params, request, response }: HttpContext) {
    const record = await this.channel(params.id, 'whatsapp')
    if (!record) return response.notFound({ error: 'Unknown channel' })
    const secrets = channelSecrets<WhatsAppSecrets>(record)
    // No secret, no check possible: a channel saved before the secret was required refuses
    // every call until its owner adds it (the settings show a warning).
    if (
      !secrets.appSecret ||
      !validSignature(request.raw() ?? '', request.header('x-hub-signature-256'), secrets.appSecret)
    ) {
      return response.unauthorized({ error: 'Invalid signature' })
    }
    const messages = incomingOfPayload(request.body(), secrets.phoneNumberId, secrets)
    if (messages.length === 0) return response.ok({ ok: true, ignored: true })
    const bot = await Bot.find(record.botId)
    // WhatsApp is a plan feature: the workspace's plan judges each message, not the connection.
    if (!bot || !(await planFor(null, bot.workspaceId)).plan.features.whatsApp) {
      return response.ok({ ok: true, ignored: true })
    }
    for (const message of messages) {
      const outcome = await receiveChannelMessage(record, message)
      if (outcome.kind !== 'reply') continue
      await sendChannelReply(record, message.contactId, outcome)
    }
    return response.ok({ ok: true })
  }
}
