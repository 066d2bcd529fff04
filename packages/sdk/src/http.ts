import type { InferFields } from './fields.js'
import type { Runner, RunnerContext } from './runner_types.js'
import type { httpRequestFields } from './http_fields.js'
import { appPort } from './port.js'

/**
 * `@flowcraft/sdk/http` (`#sdk/http` in the app): the outgoing HTTP request block as the app
 * runs it, for the HTTP request plugin and the blocks that post to an automation service
 * (Zapier, Make, Pabbly); only the name in the log differs. The request goes through the
 * runner context's guarded client. A bot saves parts of the answer `{statusCode, data}` in
 * variables and goes on whatever happens; a workflow node outputs
 * `{statusCode, headers, body}` and fails on a failed call or, unless told otherwise, an
 * answer of 400 or more.
 */

export * from './http_fields.js'

export type HttpRequestBlockOptions = InferFields<ReturnType<typeof httpRequestFields>>

/** What a bot's response mappings read paths in. */
export interface HttpResponseSummary {
  statusCode: number
  data: unknown
}

/** Beyond this a workflow node's body is cut: run records are not a file store. */
export const MAX_BODY_CHARS = 1_000_000

/** The app's side of this module (see port.ts). */
export interface HttpPort {
  runHttpRequest(
    name: string,
    context: RunnerContext<HttpRequestBlockOptions>
  ): ReturnType<Runner<{ options: ReturnType<typeof httpRequestFields> }>>
}

/** The runner of a block whose options are `httpRequestFields()`; `name` starts its logs. */
export function httpRequestRunner(
  name: string
): Runner<{ options: ReturnType<typeof httpRequestFields> }> {
  return (context) =>
    appPort('http').runHttpRequest(name, context as RunnerContext<HttpRequestBlockOptions>)
}
