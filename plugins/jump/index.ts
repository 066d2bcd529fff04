import { definePlugin, field } from '#sdk/plugin'

/** Jumps to a group (and optionally a block in it) without an edge. */
export default definePlugin({
  id: 'Jump',
  name: 'Jump',
  fullName: 'Jump to a group',
  tags: ['goto', 'navigation', 'loop', 'flow'],
  description: 'Go to another group',
  category: 'logic',
  scope: 'user',
  icon: 'corner-down-right',
  version: 1,
  serves: ['bot'],
  options: {
    groupId: field.string({ label: 'Group', optionsFrom: { fetcher: 'groups' } }),
    blockId: field.string({
      label: 'Block',
      optionsFrom: { fetcher: 'blocks', dependsOn: ['groupId'] },
    }),
  },
})
