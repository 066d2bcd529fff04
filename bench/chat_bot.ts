import { TURNS } from './chat_load.js'

/**
 * Ten rounds of: a bubble with a variable, a number input, a condition, a set variable.
 * The condition's item and its else path both lead to the round's set variable (a group of
 * its own): a matched item without an edge ends the chat, so every path must be connected
 * for the visitor to reach all ten questions.
 */
export function benchBot() {
  const groups: any[] = []
  const edges: any[] = []
  const variables: any[] = [{ id: 'vtotal', name: 'Total' }]
  for (let turn = 0; turn < TURNS; turn++) {
    variables.push({ id: `va${turn}`, name: `Answer ${turn}` })
    const condition = {
      id: `c${turn}`,
      type: 'Condition',
      outgoingEdgeId: `ec${turn}-else`,
      items: [
        {
          id: `ci${turn}`,
          outgoingEdgeId: `ec${turn}`,
          content: {
            comparisons: [
              { variableId: `va${turn}`, comparisonOperator: 'Greater than', value: '50' },
            ],
            logicalOperator: 'AND',
          },
        },
      ],
    }
    edges.push(
      {
        id: `ec${turn}`,
        from: { blockId: `c${turn}`, itemId: `ci${turn}` },
        to: { groupId: `gs${turn}` },
      },
      { id: `ec${turn}-else`, from: { blockId: `c${turn}` }, to: { groupId: `gs${turn}` } }
    )
    groups.push(
      {
        id: `g${turn}`,
        title: `Round ${turn + 1}`,
        graphCoordinates: { x: turn * 400, y: 0 },
        blocks: [
          {
            id: `t${turn}`,
            type: 'text',
            content: {
              richText: [
                { type: 'p', children: [{ text: `Question ${turn + 1}, total so far {{Total}}` }] },
              ],
            },
          },
          {
            id: `n${turn}`,
            type: 'number input',
            options: { variableId: `va${turn}`, min: 0, max: 100 },
          },
          condition,
        ],
      },
      {
        id: `gs${turn}`,
        title: `Tally ${turn + 1}`,
        graphCoordinates: { x: turn * 400, y: 200 },
        blocks: [
          {
            id: `s${turn}`,
            type: 'Set variable',
            options: {
              variableId: 'vtotal',
              type: 'Custom',
              expressionToEvaluate: '{{Answer ' + turn + '}}',
            },
          },
        ],
      }
    )
  }
  for (let turn = 0; turn < TURNS - 1; turn++) {
    const last = groups[turn * 2 + 1].blocks.at(-1)
    last.outgoingEdgeId = `e${turn}`
    edges.push({ id: `e${turn}`, from: { blockId: last.id }, to: { groupId: `g${turn + 1}` } })
  }
  groups.push({
    id: 'gend',
    title: 'End',
    graphCoordinates: { x: 0, y: 400 },
    blocks: [
      {
        id: 'tend',
        type: 'text',
        content: { richText: [{ type: 'p', children: [{ text: 'Thanks!' }] }] },
      },
    ],
  })
  const lastRound = groups[TURNS * 2 - 1].blocks.at(-1)
  lastRound.outgoingEdgeId = 'eend'
  edges.push({ id: 'eend', from: { blockId: lastRound.id }, to: { groupId: 'gend' } })
  edges.push({ id: 'estart', from: { eventId: 'start' }, to: { groupId: 'g0' } })
  return {
    version: '6',
    name: 'Chat benchmark',
    groups,
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: -300, y: 0 }, outgoingEdgeId: 'estart' },
    ],
    edges,
    variables,
    theme: {},
    settings: {},
  }
}
