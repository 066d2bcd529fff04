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
import { mayListenToDraft } from '#actions/coedit/coedit_hub'
import { DOCUMENT_CHANNEL_PATTERN, PERSON_CHANNEL_PATTERN } from '#shared/coedit/protocol'

transmit.registerRoutes()

transmit.authorize<{ id: string }>(RUN_CHANNEL_PATTERN, (ctx: HttpContext, { id }) =>
  mayListenToRuns(ctx.auth.user, id)
)

// Co-editing (docs/editor.md "Editing together"): a draft's channel, like its REST routes;
// a person's own channel, to themselves only.
transmit.authorize<{ kind: string; id: string }>(
  DOCUMENT_CHANNEL_PATTERN,
  (ctx: HttpContext, { kind, id }) => mayListenToDraft(ctx.auth.user, kind, id)
)
transmit.authorize<{ id: string }>(
  PERSON_CHANNEL_PATTERN,
  (ctx: HttpContext, { id }) => ctx.auth.user?.id === id
)

bridgeRunEventsTo(transmit)
