import type { HttpContext } from '@adonisjs/core/http'
import { UAParser } from 'ua-parser-js'
import {
  ContinueChat,
  ReceiveBlockWebhook,
  StartChat,
  StartPreviewChat,
  type VisitorInfo,
} from '#actions/chat/chat'
import {
  continueChatValidator,
  previewStartChatValidator,
  startChatValidator,
} from '#validators/chat'
import type { PreviewStartChatRequest } from '#shared/chat/types'

/** The public chat API (spec 02 section 7); JSON in and out. */
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
    }
  }

  async start(ctx: HttpContext) {
    const body = await ctx.request.validateUsing(startChatValidator)
    return new StartChat().handle(ctx.params.publicId, body, this.visitor(ctx, true))
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
    const body = await ctx.request.validateUsing(continueChatValidator)
    return new ContinueChat().handle(ctx.params.sessionId, body, this.visitor(ctx))
  }

  async webhook(ctx: HttpContext) {
    const { botId, blockId, resultId } = ctx.params
    return new ReceiveBlockWebhook().handle(botId, blockId, resultId, ctx.request.body())
  }
}
