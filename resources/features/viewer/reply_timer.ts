/**
 * The visitor's reply timer of a question with a reply timeout (docs/bots.md, "Reply
 * timeout"). The deadline is a time, not a countdown: a tab put to sleep (a phone's locked
 * screen, a background tab whose timers the browser throttles) fires on waking, when the
 * page becomes visible again or gets the focus, as soon as the deadline has passed.
 */

export interface ReplyTimerClock {
  now: () => number
  setTimeout: (run: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

/** What wakes a sleeping tab: visibility, focus, a page restored from the back-forward cache. */
export interface WakeSource {
  addEventListener(type: string, listener: () => void): void
  removeEventListener(type: string, listener: () => void): void
}

const WAKE_EVENTS = ['visibilitychange', 'focus', 'pageshow'] as const

const browserClock: ReplyTimerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Calls `onExpire` once, `seconds` after now (or on the first wake past that). The
 * returned function cancels it (an answer sent, the input gone, the chat restarted).
 */
export function startReplyTimer(
  seconds: number,
  onExpire: () => void,
  options: { clock?: ReplyTimerClock; wake?: WakeSource[] } = {}
): () => void {
  const clock = options.clock ?? browserClock
  const wake =
    options.wake ??
    (typeof window === 'undefined'
      ? []
      : [window as unknown as WakeSource, document as unknown as WakeSource])
  const deadline = clock.now() + seconds * 1000
  let handle: unknown
  let done = false

  const stop = () => {
    if (done) return
    done = true
    clock.clearTimeout(handle)
    for (const source of wake)
      for (const type of WAKE_EVENTS) source.removeEventListener(type, check)
  }

  function check() {
    if (done) return
    const remaining = deadline - clock.now()
    if (remaining <= 0) {
      stop()
      onExpire()
      return
    }
    // Woken early or throttled late: aim at the deadline again from now.
    clock.clearTimeout(handle)
    handle = clock.setTimeout(check, remaining)
  }

  for (const source of wake) for (const type of WAKE_EVENTS) source.addEventListener(type, check)
  handle = clock.setTimeout(check, Math.max(0, deadline - clock.now()))
  return stop
}
