import { httpRequestRunner } from '#sdk/http'

/**
 * The outgoing HTTP request ("Webhook" in the format), in bots and workflows: the SDK's
 * request runner (`#sdk/http`), which the automation services' blocks share.
 */
export const run = httpRequestRunner('HTTP request')

export { MAX_BODY_CHARS, type HttpResponseSummary } from '#sdk/http'

export { fromN8n } from './n8n.js'
