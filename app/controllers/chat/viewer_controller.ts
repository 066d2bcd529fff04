import type { HttpContext } from '@adonisjs/core/http'
import { resolveSettings, resolveTheme } from '#shared/bot/types'
import {
  publishedBotByDomain,
  publishedBotByPublicId,
  type PublishedBotEntry,
} from '#services/chat/bot_cache'

/**
 * The public bot page at /{publicId} (and at a bot's custom domain). The server renders
 * the bot's metadata into <head> (title, description, image, favicon, custom head code,
 * Google Tag Manager) so that link previews see them; the chat itself starts from the
 * browser, so crawlers that never run scripts create no results.
 */
export default class ViewerController {
  private async render(ctx: HttpContext, entry: PublishedBotEntry | null) {
    if (!entry || entry.isArchived) {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Bot not found' })
    }
    // The embed shows this page in an iframe on other sites.
    ctx.response.removeHeader('X-Frame-Options')
    const settings = resolveSettings(entry.bot.content.settings)
    const metadata = settings.metadata ?? {}
    const title = metadata.title?.trim() || entry.bot.content.name
    return ctx.inertia.render(
      'viewer/show',
      {
        publicId: entry.publicId ?? entry.bot.id,
        bot: {
          id: entry.bot.id,
          name: entry.bot.content.name,
          theme: resolveTheme(entry.bot.content.theme),
          settings,
        },
        embedded: ctx.request.input('embedded') === '1' || ctx.request.input('embedded') === 'true',
      },
      {
        viewerMeta: {
          title,
          description: metadata.description ?? '',
          imageUrl: metadata.imageUrl ?? '',
          favIconUrl: metadata.favIconUrl ?? '',
          customHeadCode: metadata.customHeadCode ?? '',
          googleTagManagerId: /^GTM-[A-Z0-9]+$/i.test(metadata.googleTagManagerId ?? '')
            ? metadata.googleTagManagerId
            : '',
          url: ctx.request.completeUrl(false),
        },
      }
    )
  }

  async show(ctx: HttpContext) {
    const host = ctx.request.host() ?? ''
    const byDomain = host ? await publishedBotByDomain(`${host}/${ctx.params.publicId}`) : null
    return this.render(ctx, byDomain ?? (await publishedBotByPublicId(ctx.params.publicId)))
  }

  /** `/` on a custom domain shows its bot; on the app's own host, the dashboard. */
  async root(ctx: HttpContext) {
    const host = ctx.request.host() ?? ''
    const entry = host ? await publishedBotByDomain(host) : null
    if (!entry) return ctx.response.redirect('/bots')
    return this.render(ctx, entry)
  }
}
