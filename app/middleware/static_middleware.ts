import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'
import { IMMUTABLE, precompressedAsset } from '#services/http_compression'

/**
 * Files under public/, served for GET and HEAD only (what serve-static serves anyway). The
 * package's container binding makes a new file server (serve-static with its options) for
 * every request, API calls included: here it is made once, and other methods skip it.
 *
 * The build's hashed assets (public/assets) come with brotli and gzip copies written by
 * vite.config.ts: those are sent as they are, to the clients that accept them.
 */
let server: Promise<StaticMiddleware> | undefined

export default class PublicFilesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.request.method
    if (method !== 'GET' && method !== 'HEAD') return next()
    const asset = await precompressedAsset(
      app.publicPath(),
      ctx.request.url(),
      ctx.request.header('accept-encoding')
    )
    if (asset) {
      const { response } = ctx
      response.header('Content-Type', asset.contentType)
      response.header('Content-Encoding', asset.encoding)
      response.header('Content-Length', asset.size)
      response.header('Vary', 'Accept-Encoding')
      response.header('Cache-Control', IMMUTABLE)
      response.header('Access-Control-Allow-Origin', '*')
      response.header('ETag', asset.etag)
      if (ctx.request.header('if-none-match') === asset.etag) {
        response.removeHeader('Content-Length')
        return response.status(304).send(null)
      }
      // A HEAD answer's body is dropped by Node: the headers are the same as GET's.
      return response.stream(asset.open())
    }
    server ??= app.container.make(StaticMiddleware)
    return (await server).handle(ctx, next)
  }
}
