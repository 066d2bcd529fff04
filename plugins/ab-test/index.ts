import { definePlugin, field } from '#sdk/plugin'

/** Splits visitors between two paths: a gets aPercent %, b the rest. */
export default definePlugin({
  id: 'AB test',
  name: 'AB test',
  fullName: 'A/B test (random split)',
  tags: ['split', 'experiment', 'random', 'branch'],
  description: 'Split visitors between two paths',
  category: 'logic',
  scope: 'user',
  icon: 'shuffle',
  version: 1,
  serves: ['bot'],
  options: {
    aPercent: field.number({
      label: 'Percent of visitors on path A',
      min: 0,
      max: 100,
      step: 1,
      defaultValue: 50,
    }),
  },
  items: {
    fields: {
      path: field.enum({ label: 'Path', options: ['a', 'b'], required: true }),
    },
    min: 2,
    max: 2,
    defaultItems: [{ path: 'a' }, { path: 'b' }],
    coverEveryPath: true,
  },
})
