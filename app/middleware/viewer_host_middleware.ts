import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { appUrl } from '#config/app'
import { isPublicSurfaceRequest } from '#middleware/public_api_request'
import { isViewerHost } from '#services/public_surface'

/**
 * With VIEWER_URL, the viewer host serves only the visitor surface (public bot pages,
 * /embed.js, the chat API): builder pages sent there go to the app's host, so no sign-in
 * and no session cookie ever exists on the host where bot-authored code runs
 * (docs/security.md, "Configuring the viewer host").
 */
export default class ViewerHostMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!isViewerHost(ctx.request.host()) || isPublicSurfaceRequest(ctx)) return next()
    const method = ctx.request.method()
    if (method === 'GET' || method === 'HEAD') {
      return ctx.response.redirect(`${appUrl}${ctx.request.url(true)}`)
    }
    return ctx.response.status(404).json({ message: 'Not found' })
  }
}
