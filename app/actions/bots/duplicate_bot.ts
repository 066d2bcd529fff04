import Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { type BotV6 } from '#shared/bot/types'
import { contentOf } from './bots.js'
import { CreateBot } from './create_bot.js'

export class DuplicateBot {
  async handle(user: User, workspace: Workspace, bot: Bot) {
    return new CreateBot().handle(user, workspace, {
      name: `${bot.name} (copy)`,
      folderId: bot.folderId,
      content: { version: '6', name: bot.name, ...contentOf(bot as unknown as BotV6) } as BotV6,
    })
  }
}
