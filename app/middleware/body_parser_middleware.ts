import app from '@adonisjs/core/services/app'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import string from '@adonisjs/core/helpers/string'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { BodyParserConfig } from '@adonisjs/core/types/bodyparser'
import AppError from '#exceptions/app_error'
import {
  MAX_BODY_DEPTH,
  bodyTooDeep,
  bodyTooLarge,
  exceedsDepth,
  invalidJson,
  valueExceedsDepth,
} from '#services/request_limits'

/**
 * The framework's body parser, with JSON read here so that size and nesting are checked on
 * the raw text before anything recursive touches it (docs/security.md, "Request limits").
 * Forms and multipart bodies still go to the package's parser: qs caps their nesting, and a
 * multipart field name nested past the stack (`a[0][0]...`) is answered as too deep below.
 */
let made: { parser: BodyParserMiddleware; config: BodyParserConfig } | undefined

function parserAndConfig() {
  if (!made) {
    const config = app.config.get<BodyParserConfig>('bodyparser')
    made = { parser: new BodyParserMiddleware(config, app.experimentalFlags), config }
  }
  return made
}

const STRICT_START = /^[ \t\n\r]*(\[|\{)/

/*
 * The visitor's chat sends its JSON as text/plain: a "simple" cross-origin request that
 * needs no CORS preflight, one round trip less before the first bubble on a slow phone
 * (docs/architecture.md, "The visitor surface"). Only these cookieless, CSRF-exempt routes
 * read such a body as JSON; everywhere else text/plain stays unparsed.
 */
const PLAIN_TEXT_JSON_ROUTES = new Set([
  '/api/v1/typebots/:publicId/startChat',
  '/api/v1/bots/:publicId/startChat',
  '/api/v1/sessions/:sessionId/continueChat',
  '/api/v1/sessions/:sessionId/timeout',
])

function isPlainTextJson(ctx: HttpContext) {
  return (
    PLAIN_TEXT_JSON_ROUTES.has(ctx.route?.pattern ?? '') &&
    ctx.request.is(['text/plain']) === 'text/plain'
  )
}

/** Keys that could reach an object's prototype once a parsed body is merged somewhere. */
function dropPrototypeKeys(key: string, value: unknown) {
  if (key === '__proto__') return undefined
  if (key === 'constructor' && value && typeof value === 'object' && 'prototype' in value) {
    return undefined
  }
  return value
}

function emptyToNull(key: string, value: unknown) {
  return key !== '' && value === '' ? null : dropPrototypeKeys(key, value)
}

/** Reads the (possibly compressed) body as UTF-8 text, stopping once it passes `limit` bytes. */
function readText(ctx: HttpContext, limit: number, limitText: string): Promise<string> {
  const req = ctx.request.request
  const encoding = (req.headers['content-encoding'] || 'identity').toLowerCase()
  const declared = Number(req.headers['content-length'])
  if (encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
    return Promise.reject(bodyTooLarge(limitText))
  }
  let stream: Readable = req
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = req.pipe(createGunzip())
  else if (encoding === 'deflate') stream = req.pipe(createInflate())
  else if (encoding === 'br') stream = req.pipe(createBrotliDecompress())
  else if (encoding !== 'identity') {
    return Promise.reject(
      new AppError('Unsupported content encoding', {
        status: 415,
        code: 'E_ENCODING_UNSUPPORTED',
        description: `"${encoding}" is not supported.`,
      })
    )
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      // Stop reading; what is left of the body is discarded with the connection's next use.
      req.unpipe()
      req.resume()
      reject(error)
    }
    stream.on('data', (chunk: Buffer) => {
      if (settled) return
      size += chunk.length
      if (size > limit) return fail(bodyTooLarge(limitText))
      chunks.push(chunk)
    })
    stream.on('error', () =>
      fail(
        new AppError('Invalid request body', {
          status: 400,
          code: 'E_INVALID_JSON',
          description: 'The body could not be decoded.',
        })
      )
    )
    req.on('aborted', () =>
      fail(new AppError('Request aborted', { status: 400, code: 'E_REQUEST_ABORTED' }))
    )
    stream.on('end', () => {
      if (settled) return
      settled = true
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}

export default class AppBodyParserMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const { parser, config } = parserAndConfig()
    const method = ctx.request.method()
    if (
      config.allowedMethods.includes(method) &&
      ctx.request.hasBody() &&
      ((config.json.types.length &&
        ctx.request.is(config.json.types) &&
        !ctx.request.is(config.multipart.types) &&
        !ctx.request.is(config.form.types)) ||
        isPlainTextJson(ctx))
    ) {
      return this.json(ctx, next, config.json)
    }
    let passed = false
    let tooDeep = false
    if (ctx.request.is(config.multipart.types)) {
      // Multipart fields are set from a stream event, where a throw would escape the request:
      // a body nested too deep is swapped for an empty one and refused once parsing ends.
      const request = ctx.request
      const setInitialBody = request.setInitialBody.bind(request)
      request.setInitialBody = (body) => {
        if (valueExceedsDepth(body)) {
          tooDeep = true
          return setInitialBody({})
        }
        return setInitialBody(body)
      }
    }
    try {
      return await parser.handle(ctx, () => {
        passed = true
        if (tooDeep) throw bodyTooDeep()
        return next()
      })
    } catch (error) {
      // Only a failure while parsing: errors of the route itself go on unchanged.
      if ((!passed && error instanceof RangeError) || tooDeep) throw bodyTooDeep()
      throw error
    }
  }

  private async json(ctx: HttpContext, next: NextFn, config: BodyParserConfig['json']) {
    // What the package's parser sets for every request it handles (request.allFiles() reads it).
    ;(ctx.request as unknown as Record<string, unknown>).__raw_files = {}
    const limitText = String(config.limit ?? '1mb')
    const limit =
      typeof config.limit === 'number' ? config.limit : (string.bytes.parse(limitText) ?? 1048576)
    const text = await readText(ctx, limit, limitText)
    let parsed: unknown = {}
    if (text) {
      if (config.strict !== false && !STRICT_START.test(text)) {
        throw invalidJson('The body must be a JSON object or array.')
      }
      if (exceedsDepth(text, MAX_BODY_DEPTH)) throw bodyTooDeep()
      // The reviver walks every value: used only when the text may need it (escapes too).
      const reviver = config.convertEmptyStringsToNull
        ? emptyToNull
        : /proto|constructor|\\u/.test(text)
          ? dropPrototypeKeys
          : undefined
      try {
        parsed = JSON.parse(text, reviver)
      } catch (error) {
        throw invalidJson((error as Error).message)
      }
    }
    ctx.request.setInitialBody(parsed as Record<string, unknown>)
    ctx.request.updateRawBody(text)
    return next()
  }
}
