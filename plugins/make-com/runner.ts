import { httpRequestRunner } from '#sdk/http'

/** The HTTP request block's runner; the logs name Make. */
export const run = httpRequestRunner('Make')
