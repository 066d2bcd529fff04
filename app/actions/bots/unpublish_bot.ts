import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import AppError from '#exceptions/app_error'
import { syncTelegramWebhook } from './connect_telegram.js'

export class UnpublishBot {
  async handle(bot: Bot) {
    const existing = await PublishedBot.findBy('bot_id', bot.id)
    if (!existing)
      throw new AppError('Error while unpublishing bot', {
        status: 400,
        description: 'The bot is not published.',
      })
    await existing.delete()
    await syncTelegramWebhook(bot.id)
  }
}
