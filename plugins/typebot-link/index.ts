import { definePlugin, field } from '#sdk/plugin'

/**
 * Jumps into another bot of the workspace (or a group of this one) and comes back when
 * it ends. Stored as typebotId, the key other tools of the ecosystem export.
 */
export default definePlugin({
  id: 'Typebot link',
  name: 'Bot link',
  fullName: 'Link to another bot',
  tags: ['bot', 'link', 'subflow', 'typebot'],
  description: 'Continue in another bot',
  category: 'logic',
  scope: 'user',
  icon: 'workflow',
  version: 1,
  serves: ['bot'],
  options: {
    typebotId: field.string({ label: 'Bot', optionsFrom: { fetcher: 'bots' }, refersTo: 'bot' }),
    groupId: field.string({
      label: 'Group',
      optionsFrom: { fetcher: 'groups', dependsOn: ['typebotId'] },
    }),
    mergeResults: field.boolean({ label: 'Merge answers', defaultValue: false }),
  },
})
