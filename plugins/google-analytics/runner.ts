import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Returns the `googleAnalytics` client-side action (resources/embed/host_actions.ts runs it). */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const action = options.action?.trim()
  if (!action) {
    logger.error('Google Analytics: the event action is empty')
    return {}
  }
  const trimmed = (value: string | undefined) => value?.trim() || undefined
  const rawValue = trimmed(options.value)
  const value = rawValue === undefined ? undefined : Number(rawValue)
  if (rawValue !== undefined && !Number.isFinite(value)) {
    logger.info(`Google Analytics: the value "${rawValue}" is not a number, it is not sent`)
  }
  return {
    clientSideActions: [
      {
        type: 'googleAnalytics',
        googleAnalytics: {
          trackingId: trimmed(options.trackingId),
          action,
          category: trimmed(options.category),
          label: trimmed(options.label),
          value: Number.isFinite(value) ? value : undefined,
          sendTo: trimmed(options.sendTo),
        },
      },
    ],
  }
}
