import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import {
  compressBody,
  compressibleType,
  preferredEncoding,
  type Encoding,
} from '#services/http_compression'

/**
 * Compresses every text answer sent whole (pages, JSON, /embed.js, error pages) with
 * brotli or gzip, as the client accepts (docs/architecture.md, "Compression"). Answers
 * sent in pieces pass through as they are written: the chat's event stream must reach the
 * visitor token by token, and files under public/assets are compressed at build time
 * (app/middleware/static_middleware.ts serves those).
 *
 * It works on Node's response, under every other layer, because AdonisJS writes the
 * status line and headers (writeHead) just before the body (end): the headers are held
 * back until the body is known.
 */
export default class CompressionMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const method = ctx.request.request.method
    const encoding = preferredEncoding(ctx.request.header('accept-encoding'))
    if (method !== 'HEAD' && encoding) holdHeadersUntilEnd(ctx.response.response, encoding)
    return next()
  }
}

type Response = HttpContext['response']['response']

function holdHeadersUntilEnd(res: Response, encoding: Encoding) {
  const writeHead = res.writeHead
  const write = res.write
  const end = res.end
  let held: { status: number; message?: string } | null = null
  let streaming = false

  // Node's own end() and write() call writeHead when nothing has: from then on the
  // original runs, and the held status line (if any) is written first.
  const release = () => {
    res.writeHead = writeHead
    if (!held) return
    const { status, message } = held
    held = null
    if (message === undefined) writeHead.call(res, status)
    else writeHead.call(res, status, message as any)
  }

  res.writeHead = function (this: Response, status: number, ...rest: unknown[]) {
    const message = typeof rest[0] === 'string' ? rest[0] : undefined
    const headers = typeof rest[0] === 'string' ? rest[1] : rest[0]
    // Raw header arrays cannot be edited: written as they are, uncompressed.
    if (Array.isArray(headers)) return writeHead.apply(res, [status, ...rest] as any)
    if (headers && typeof headers === 'object') {
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined) res.setHeader(name, value as any)
      }
    }
    held = { status, message }
    return res
  } as Response['writeHead']

  const flushHeaders = res.flushHeaders
  res.flushHeaders = function (this: Response) {
    streaming = true
    release()
    return flushHeaders.call(res)
  }

  res.write = function (this: Response, ...args: unknown[]) {
    streaming = true
    release()
    return write.apply(res, args as any)
  } as Response['write']

  res.end = function (this: Response, ...args: unknown[]) {
    const [chunk, chunkEncoding] = args
    if (!streaming && chunk && typeof chunk !== 'function') {
      const status = held?.status ?? res.statusCode
      const body =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof chunkEncoding === 'string' ? (chunkEncoding as any) : 'utf8')
          : Buffer.isBuffer(chunk)
            ? chunk
            : chunk instanceof Uint8Array
              ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
              : null
      if (body && compressible(res, status)) {
        res.appendHeader('Vary', 'Accept-Encoding')
        const compressed = compressBody(body, encoding)
        if (compressed) {
          res.setHeader('Content-Encoding', encoding)
          res.setHeader('Content-Length', compressed.length)
          release()
          const callback = args.find((arg) => typeof arg === 'function')
          return end.call(res, compressed, callback as any)
        }
      }
    }
    release()
    return end.apply(res, args as any)
  } as Response['end']
}

function compressible(res: Response, status: number) {
  if (status < 200 || status === 204 || status === 206 || status === 304) return false
  if (res.getHeader('content-encoding')) return false
  if (/\bno-transform\b/i.test(String(res.getHeader('cache-control') ?? ''))) return false
  return compressibleType(String(res.getHeader('content-type') ?? ''))
}
