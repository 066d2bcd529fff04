import type Bot from '#models/bot'
import type User from '#models/user'
import { recordBotVersion } from './bot_history.js'

export class SaveNamedBotVersion {
  handle(user: User, bot: Bot, name: string) {
    return recordBotVersion(bot, user, { kind: 'named', name })
  }
}
