import type { HttpContext } from '@adonisjs/core/http'
import { appUrl } from '#config/app'
import { PUBLIC_PAGE_SANDBOX, isViewerHost, viewerBaseUrl } from '#services/public_surface'
import { resolveSettings, resolveTheme } from '#shared/bot/types'
import { isClaimedHost } from '#services/custom_domains'
import {
  publishedBotByDomain,
  publishedBotByPublicId,
  type PublishedBotEntry,
} from '#services/chat/bot_cache'
import { viewerStrings, visitorLanguage } from '#services/chat/viewer_strings'

/** JSON to print inside <script type="application/json">: no "<" can end the element. */
function scriptSafeJson(value: unknown) {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** The page opened by an embed (its iframe's URL says so). */
function isEmbedded(ctx: HttpContext) {
  const value = ctx.request.input('embedded')
  return value === '1' || value === 'true'
}

/** The not found page runs nothing and loads only its favicon: its styles are inline. */
const NOT_FOUND_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; sandbox"

/**
 * The public bot page at /{publicId} (and at a bot's custom domain). The server renders
 * the bot's metadata into <head> (title, description, image, favicon, custom head code,
 * Google Tag Manager) so that link previews see them; the chat itself starts from the
 * browser, so crawlers that never run scripts create no results.
 *
 * The page carries its author's code (head code, client-side scripts, embeds): it is
 * served with no cookie, and wherever a builder may hold a session on this host, in an
 * opaque origin (CSP sandbox). With VIEWER_URL it lives on the viewer host instead
 * (docs/security.md).
 */
export default class ViewerController {
  /**
   * A missing, unpublished or archived bot: the visitor surface's own small page (plain
   * HTML in the visitor's language, from the chat's viewer.json), never the dashboard's.
   * It loads nothing else, so it also fits an embed's iframe.
   */
  private async notFound(ctx: HttpContext) {
    const lang = visitorLanguage((supported) => ctx.request.language(supported))
    const strings = await viewerStrings(lang, [
      'viewer.errors.notFound.title',
      'viewer.errors.notFound.description',
    ])
    ctx.response.status(404)
    ctx.response.header('Content-Security-Policy', NOT_FOUND_CSP)
    ctx.response.header('X-Content-Type-Options', 'nosniff')
    // The bot may be published a minute later; the words depend on the language.
    ctx.response.header('Cache-Control', 'no-cache')
    ctx.response.header('Vary', 'Accept-Language')
    return ctx.view.render('viewer_not_found', {
      lang,
      embedded: isEmbedded(ctx),
      title: strings['viewer.errors.notFound.title'],
      description: strings['viewer.errors.notFound.description'],
    })
  }

  private async render(ctx: HttpContext, entry: PublishedBotEntry | null) {
    if (!entry || entry.isArchived) return this.notFound(ctx)
    // The viewer host never holds a builder's session; any other host may.
    if (!isViewerHost(ctx.request.host())) {
      ctx.response.header('Content-Security-Policy', PUBLIC_PAGE_SANDBOX)
    }
    ctx.response.header('X-Content-Type-Options', 'nosniff')
    ctx.response.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    const settings = resolveSettings(entry.bot.content.settings)
    const metadata = settings.metadata ?? {}
    const title = metadata.title?.trim() || entry.bot.content.name
    const props = {
      publicId: entry.publicId ?? entry.bot.id,
      bot: {
        id: entry.bot.id,
        name: entry.bot.content.name,
        theme: resolveTheme(entry.bot.content.theme),
        settings,
      },
      embedded: isEmbedded(ctx),
    }
    // Its own small page and bundle (resources/viewer.tsx), not an Inertia page of the
    // dashboard's app: a visitor downloads the chat alone (docs/architecture.md).
    const remember = settings.general?.rememberUser
    return ctx.view.render('viewer', {
      viewerProps: scriptSafeJson(props),
      // What the page's inline script needs to send startChat before the chat's scripts
      // arrive: the same request resources/pages/viewer/show.tsx makes (see viewer.edge).
      earlyStart: scriptSafeJson({
        url: `/api/v1/typebots/${encodeURIComponent(props.publicId)}/startChat`,
        publicId: props.publicId,
        storage: remember?.isEnabled ? (remember.storage === 'local' ? 'local' : 'session') : '',
        prefill: !!settings.general?.isInputPrefillEnabled,
      }),
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
    })
  }

  async show(ctx: HttpContext) {
    const host = ctx.request.host() ?? ''
    const byDomain = host ? await publishedBotByDomain(`${host}/${ctx.params.publicId}`) : null
    if (byDomain) return this.render(ctx, byDomain)
    if (host && (await isClaimedHost(host))) return this.render(ctx, null)
    // With a viewer host, bots are not served where builders sign in.
    const viewer = viewerBaseUrl()
    if (viewer && !isViewerHost(host)) {
      return ctx.response.redirect(`${viewer}${ctx.request.url(true)}`)
    }
    return this.render(ctx, await publishedBotByPublicId(ctx.params.publicId))
  }

  /** `/` on a custom domain shows its bot; elsewhere, the dashboard (on the app's host). */
  async root(ctx: HttpContext) {
    const host = ctx.request.host() ?? ''
    const entry = host ? await publishedBotByDomain(host) : null
    if (!entry) return ctx.response.redirect(isViewerHost(host) ? `${appUrl}/bots` : '/bots')
    return this.render(ctx, entry)
  }
}
