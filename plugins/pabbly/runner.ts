import { httpRequestRunner } from '#sdk/http'

/** The HTTP request block's runner; the logs name Pabbly. */
export const run = httpRequestRunner('Pabbly')
