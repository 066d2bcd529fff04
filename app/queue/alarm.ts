/**
 * A timer for an absolute time that may be further away than setTimeout's limit (about 24.8
 * days: longer delays fire at once), as a yearly cron tick or a long workflow wait can be.
 */

const MAX_TIMEOUT = 2 ** 31 - 1

export class Alarm {
  #timer: NodeJS.Timeout | null = null

  constructor(
    readonly at: number,
    private fire: () => void
  ) {
    this.#arm()
  }

  #arm() {
    const remaining = this.at - Date.now()
    if (remaining <= 0) {
      // Still asynchronous, so callers can finish their bookkeeping before it fires.
      this.#timer = setTimeout(() => this.#ring(), 0)
    } else {
      this.#timer = setTimeout(() => this.#arm(), Math.min(remaining, MAX_TIMEOUT))
    }
    // Queued work in memory must never be the reason a process cannot exit.
    this.#timer.unref()
  }

  #ring() {
    this.#timer = null
    this.fire()
  }

  get pending() {
    return this.#timer !== null
  }

  cancel() {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
  }
}
