import { conditionFields, definePlugin, field } from '#sdk/plugin'

/**
 * Branches the flow or the run. Each item is a branch holding comparisons joined by AND or
 * OR; the first item that holds is followed, otherwise the block's own outgoing edge
 * ("Else"), or the node's default edge. In a workflow the branches are stored in
 * `block.conditions` and a comparison may read a reference such as {{$input.status}}.
 */
export default definePlugin({
  id: 'Condition',
  name: 'Condition',
  fullName: 'Condition (if / else)',
  tags: ['if', 'branch', 'logic', 'compare'],
  description: 'Branch on variable values',
  category: 'logic',
  categories: { workflow: 'flow' },
  scope: 'user',
  icon: 'split',
  version: 1,
  serves: ['bot', 'workflow'],
  importsFrom: { n8n: ['n8n-nodes-base.if', 'n8n-nodes-base.switch', 'n8n-nodes-base.filter'] },
  // Workflows saved before the bot block and the workflow node became one store this id.
  aliases: ['workflow-condition'],
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
