import type Bot from '#models/bot'
import { versionsQuery } from './bot_history.js'

export class ListBotVersions {
  handle(bot: Bot) {
    return versionsQuery(bot.id).preload('user')
  }
}
