import type { HttpContext } from '@adonisjs/core/http'
import { UAParser } from 'ua-parser-js'
import { ContinueChat } from '#actions/chat/continue_chat'
import { ReceiveBlockWebhook } from '#actions/chat/receive_block_webhook'
import { StartChat } from '#actions/chat/start_chat'
import { StartPreviewChat } from '#actions/chat/start_preview_chat'
import { type VisitorInfo } from '#services/chat/chat_runtime'
import {
  continueChatValidator,
  previewStartChatValidator,
  startChatValidator,
  timeoutChatValidator,
} from '#validators/chat'
import type { PreviewStartChatRequest } from '#shared/chat/types'
import { StreamMessage } from '#actions/chat/stream_message'
import { TimeoutChat } from '#actions/chat/timeout_chat'
import { Readable } from 'node:stream'
import { validationMessages } from '#middleware/locale_middleware'
import type { VineValidator } from '@vinejs/vine'
import type { SchemaTypes } from '@vinejs/vine/types'

/**
 * The body checked by a validator compiled once at load (app/validators/chat.ts). Unlike
 * `request.validateUsing`, the headers, cookies and route params are not copied into the
 * data: no chat field reads them.
 */
function bodyOf<Schema extends SchemaTypes>(
  ctx: HttpContext,
  validator: VineValidator<Schema, undefined>
) {
  return validator.validate(ctx.request.all(), {
    messagesProvider: validationMessages(ctx),
    meta: undefined,
  })
}

/**
 * A reply as JSON text. The chat replies are plain data (parsed JSON and strings), so the
 * built-in JSON.stringify does; the response's default goes through a safe, key-sorting
 * stringify made for any object.
 */
function json(ctx: HttpContext, body: unknown) {
  ctx.response.header('Content-Type', 'application/json; charset=utf-8')
  return JSON.stringify(body)
}

/** The public chat API; JSON in and out. */
export default class ChatController {
  /** Origin always; device and country only when a chat starts (they go in the result). */
  private visitor(ctx: HttpContext, withDevice = false): VisitorInfo {
    if (!withDevice) return { origin: ctx.request.header('origin') }
    const agent = ctx.request.header('user-agent')
    const parsed = agent ? new UAParser(agent).getResult() : undefined
    const country = ctx.request.header('cf-ipcountry') ?? ctx.request.header('x-country-code')
    return {
      origin: ctx.request.header('origin'),
      deviceDetails: parsed
        ? {
            browser:
              [parsed.browser.name, parsed.browser.version].filter(Boolean).join(' ') || null,
            os: [parsed.os.name, parsed.os.version].filter(Boolean).join(' ') || null,
            device: parsed.device.type ?? 'desktop',
          }
        : null,
      location: country ? { country } : null,
      acceptLanguage: ctx.request.header('accept-language'),
    }
  }

  async start(ctx: HttpContext) {
    const body = await bodyOf(ctx, startChatValidator)
    return json(
      ctx,
      await new StartChat().handle(ctx.params.publicId, body, this.visitor(ctx, true))
    )
  }

  async preview(ctx: HttpContext) {
    const body = await ctx.request.validateUsing(previewStartChatValidator)
    return new StartPreviewChat().handle(
      ctx.auth.getUserOrFail(),
      ctx.params.botId,
      body as PreviewStartChatRequest
    )
  }

  async continue(ctx: HttpContext) {
    const body = await bodyOf(ctx, continueChatValidator)
    return json(ctx, await new ContinueChat().handle(ctx.params.sessionId, body, this.visitor(ctx)))
  }

  /**
   * The visitor's reply timer fired: the "No reply" path's reply, or 409 when the
   * deadline has not passed (`remainingMs`) or the question is no longer awaited.
   */
  async timeout(ctx: HttpContext) {
    const body = await bodyOf(ctx, timeoutChatValidator)
    const outcome = await new TimeoutChat().handle(ctx.params.sessionId, body, this.visitor(ctx))
    if (outcome.kind === 'early') {
      ctx.response.status(409)
      return json(ctx, {
        message: 'The reply timeout has not passed yet',
        remainingMs: outcome.remainingMs,
      })
    }
    if (outcome.kind === 'stale') {
      ctx.response.status(409)
      return json(ctx, { message: 'The session does not await this question any more' })
    }
    return json(ctx, outcome.reply)
  }

  /**
   * The paused block's answer as plain text, chunk by chunk as the provider sends it; an
   * error before the first chunk is answered as JSON `{ message }` with its status.
   */
  async stream(ctx: HttpContext) {
    const closed = new AbortController()
    ctx.response.response.once('close', () => {
      if (!ctx.response.response.writableFinished) closed.abort()
    })
    const outcome = await new StreamMessage().handle(
      ctx.params.sessionId,
      this.visitor(ctx),
      closed.signal
    )
    if (outcome.kind === 'error') {
      return ctx.response.status(outcome.status).json({ message: outcome.message })
    }
    ctx.response.header('Content-Type', 'text/plain; charset=utf-8')
    ctx.response.header('Cache-Control', 'no-cache, no-transform')
    // Proxies (nginx) would otherwise hold the chunks back until the end.
    ctx.response.header('X-Accel-Buffering', 'no')
    ctx.response.stream(Readable.from(outcome.chunks, { objectMode: false }))
  }

  async webhook(ctx: HttpContext) {
    const { botId, blockId, resultId } = ctx.params
    return new ReceiveBlockWebhook().handle(botId, blockId, resultId, ctx.request.body())
  }
}
