import type { HttpContext } from '@adonisjs/core/http'
import { receiveEvent } from '#services/workflows/event_triggers'

/** Calls of other services to a workflow's event trigger (Telegram updates, Slack events). */
export default class EventTriggersController {
  async receive(ctx: HttpContext) {
    const headers: Record<string, string | undefined> = {}
    for (const [name, value] of Object.entries(ctx.request.headers())) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    }
    const answer = await receiveEvent(ctx.params.id, ctx.params.nodeId, {
      method: ctx.request.method(),
      headers,
      query: ctx.request.qs(),
      body: ctx.request.body() ?? null,
      rawBody: ctx.request.raw() ?? '',
    })
    for (const [name, value] of Object.entries(answer.headers ?? {}))
      ctx.response.header(name, value)
    return ctx.response.status(answer.status ?? 200).send(answer.body ?? '')
  }
}
