import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Max wait a chat accepts, so a typo cannot freeze a conversation for days. */
const MAX_SECONDS = 3600

/**
 * The client waits before showing what follows. With shouldPause the flow stops here
 * and goes on when the client calls back after the delay.
 */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const seconds = Number(options.secondsToWaitFor ?? 0)
  if (!Number.isFinite(seconds) || seconds <= 0) {
    if (options.secondsToWaitFor !== undefined && String(options.secondsToWaitFor).trim() !== '') {
      logger.error(`Wait: "${options.secondsToWaitFor}" is not a number of seconds`)
    }
    return {}
  }
  return {
    clientSideActions: [
      { type: 'wait', wait: { secondsToWaitFor: Math.min(seconds, MAX_SECONDS) } },
    ],
    pause: Boolean(options.shouldPause),
  }
}
