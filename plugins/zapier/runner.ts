import { httpRequestRunner } from '#sdk/http'

/** The HTTP request block's runner; the logs name Zapier. */
export const run = httpRequestRunner('Zapier')
