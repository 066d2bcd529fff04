import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Continues in another bot of the workspace ('current' is this bot), then comes back. */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  if (!options.typebotId) {
    logger.error('Bot link: no bot selected')
    return {}
  }
  return {
    link: {
      botId: options.typebotId,
      groupId: options.groupId || undefined,
      mergeResults: options.mergeResults !== false,
    },
  }
}
