import { conditionFields, definePlugin, field } from '#sdk/plugin'

/**
 * Branches the run. Each branch (stored in block.conditions, like the items of the bot
 * Condition block) holds comparisons joined by AND or OR; the first branch that holds is
 * followed, otherwise the node's default edge. A comparison's variable may also be a
 * reference such as {{$input.status}}.
 */
export default definePlugin({
  id: 'workflow-condition',
  name: 'Condition',
  description: 'Branch on variables and node outputs',
  category: 'flow',
  scope: 'user',
  icon: 'split',
  version: 1,
  serves: ['workflow'],
  replayable: true,
  options: {},
  items: {
    fields: {
      content: field.object(conditionFields(), { label: 'Condition' }),
    },
    min: 1,
    defaultItems: [{ content: { comparisons: [], logicalOperator: 'AND' } }],
  },
})
