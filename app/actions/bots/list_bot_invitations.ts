import Bot from '#models/bot'
import BotInvitation from '#models/bot_invitation'

export class ListBotInvitations {
  async handle(bot: Bot) {
    return BotInvitation.query()
      .where('bot_id', bot.id)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
  }
}
