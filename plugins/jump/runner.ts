import type { Runner } from '#sdk/plugin'
import type plugin from './index.js'

/** Goes to a group (and block); a later Return block comes back after this one. */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  if (!options.groupId) {
    logger.error('Jump: no group selected')
    return {}
  }
  return { jump: { groupId: options.groupId, blockId: options.blockId || undefined } }
}
