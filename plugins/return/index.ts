import { definePlugin } from '#sdk/plugin'

/** Goes back to the block after the last Jump (nothing to do without a Jump). */
export default definePlugin({
  id: 'Return',
  name: 'Return',
  fullName: 'Return to the calling bot',
  tags: ['end', 'back', 'flow', 'link'],
  description: 'Go back to where the last Jump left',
  category: 'logic',
  scope: 'user',
  icon: 'undo-2',
  version: 1,
  serves: ['bot'],
  options: {},
})
