/*
| Server-sent events (@adonisjs/transmit): the stream routes (GET /__transmit/events,
| POST /__transmit/subscribe and /unsubscribe, behind the session and CSRF like any page
| call), who may listen to which channel, and what is broadcast. Web and test processes only:
| workers hold no browser streams.
*/
import transmit from '@adonisjs/transmit/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import {
  RUN_CHANNEL_PATTERN,
  bridgeRunEventsTo,
  mayListenToRuns,
} from '#services/workflows/run_channel'

transmit.registerRoutes()

transmit.authorize<{ id: string }>(RUN_CHANNEL_PATTERN, (ctx: HttpContext, { id }) =>
  mayListenToRuns(ctx.auth.user, id)
)

bridgeRunEventsTo(transmit)
