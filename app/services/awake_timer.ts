/**
 * A timer counted in this process's own running time rather than in wall time.
 *
 * It ticks every `tickMs`; a tick that comes late (the process was not scheduled, or its event
 * loop was busy) counts for at most one and a half ticks. On a quiet machine it ends after
 * about `ms` of wall time. On a starved one, where every process (Redis and the database
 * included) gets a sliver of a core and a healthy answer can take seconds, it waits longer in
 * proportion, so a budget meant for "the other side stopped answering" does not also catch
 * "nobody got the CPU".
 */
export function awakeTimer(ms: number, tickMs = 100) {
  let counted = 0
  let last = performance.now()
  let timer: NodeJS.Timeout | undefined
  let cancel = () => {}
  const done = new Promise<void>((resolve) => {
    cancel = () => {
      clearTimeout(timer)
      resolve()
    }
    const tick = () => {
      const now = performance.now()
      counted += Math.min(now - last, tickMs * 1.5)
      last = now
      if (counted >= ms) resolve()
      else timer = setTimeout(tick, Math.min(tickMs, ms - counted))
    }
    timer = setTimeout(tick, Math.min(tickMs, ms))
  })
  return { done, cancel }
}
