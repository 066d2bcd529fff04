import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import { findBotFor } from '#actions/bots/bot_access'
import { DraftTranslations } from '#actions/bots/draft_translations'
import { draftTranslationsValidator } from '#validators/bot_translations'

/**
 * The Languages panel's "Draft with AI" (docs/bots.md "Languages"). Only people who may edit
 * the bot ask: the drafts become its edits.
 */
export default class BotTranslationsController {
  /** POST {language, texts: [{key, source}], credentialsId?}: {drafts: {key: text}}. */
  async draft(ctx: HttpContext) {
    const { bot } = await findBotFor(ctx.auth.user!, ctx.params.botId, 'write')
    const input = await ctx.request.validateUsing(draftTranslationsValidator)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    return ctx.response.ok(
      await new DraftTranslations().handle(ctx.auth.user!, workspace, bot, input)
    )
  }
}
