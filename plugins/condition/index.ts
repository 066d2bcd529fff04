import { conditionFields, definePlugin, field } from '#sdk/plugin'

/**
 * Branches the flow. Each item is a branch holding comparisons joined by AND or OR; the
 * first item that holds is followed, otherwise the block's own outgoing edge ("Else").
 */
export default definePlugin({
  id: 'Condition',
  name: 'Condition',
  description: 'Branch on variable values',
  category: 'logic',
  scope: 'user',
  icon: 'split',
  version: 1,
  serves: ['bot'],
  options: {},
  items: {
    fields: {
      content: field.object(conditionFields(), { label: 'Condition' }),
    },
    min: 1,
    defaultItems: [{ content: { comparisons: [], logicalOperator: 'AND' } }],
  },
})
