/**
 * How both editors send their draft (docs/workflows.md "Autosave"): one save at a time, a
 * change made meanwhile going with the next call; and, when the page is going away, at once
 * with `keepalive` so the request outlives the page. Browsers cap the bodies of keepalive
 * requests in flight near 64 KB: a larger draft cannot go that way.
 */

export interface SaveOptions {
  /** The page is being hidden or left: send now, as a keepalive request. */
  keepalive?: boolean
  /** "Keep mine" after a conflict: saved without the revision check (docs/editor.md). */
  overwrite?: boolean
}

/** Bytes a keepalive body may take (under the browsers' 64 KB for all of a page's). */
export const KEEPALIVE_MAX_BYTES = 60_000

export function fitsKeepalive(body: unknown) {
  return new TextEncoder().encode(JSON.stringify(body)).length <= KEEPALIVE_MAX_BYTES
}

export function createSaveQueue(send: (options: SaveOptions) => Promise<boolean>) {
  let inFlight: Promise<boolean> | null = null
  return (options: SaveOptions = {}): Promise<boolean> => {
    // The page may be gone before a save in flight answers: no waiting for it.
    if (options.keepalive) return send(options)
    const run = (inFlight ?? Promise.resolve(true)).then(() => send(options))
    inFlight = run.finally(() => {
      if (inFlight === run) inFlight = null
    })
    return run
  }
}
