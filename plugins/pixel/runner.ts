import { cleanKeyValue, type Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Returns the `pixel` client-side action (resources/embed/host_actions.ts runs it). */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  const eventType = options.eventType ?? 'Lead'
  const name = options.name?.trim()
  if (eventType === 'Custom' && !name) {
    logger.error('Pixel: the custom event has no name')
    return {}
  }
  return {
    clientSideActions: [
      {
        type: 'pixel',
        pixel: {
          pixelId: options.pixelId?.trim() || undefined,
          eventType,
          name: eventType === 'Custom' ? name : undefined,
          params: cleanKeyValue(options.params).map(({ key, value }) => ({ key, value })),
        },
      },
    ],
  }
}
