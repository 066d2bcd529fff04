import { test } from '@japa/runner'
import { nextInputFinder } from '#actions/results/drop_offs'
import type { ResultsGraph } from '#actions/results/result_columns'

const at = { x: 0, y: 0 }

/**
 * start → g1: text, choice (Yes → g2, No → g3)
 * g2: condition (item → g4), email input
 * g3: text input; g4: number input
 */
const graph: ResultsGraph = {
  events: [{ id: 'start', type: 'start', graphCoordinates: at, outgoingEdgeId: 'e0' }],
  groups: [
    {
      id: 'g1',
      title: 'Ask',
      graphCoordinates: at,
      blocks: [
        { id: 'hello', type: 'text' },
        {
          id: 'choice',
          type: 'choice input',
          items: [
            { id: 'yes', content: 'Yes', outgoingEdgeId: 'e1' },
            { id: 'no', content: 'No', outgoingEdgeId: 'e2' },
          ],
        },
      ],
    },
    {
      id: 'g2',
      title: 'Yes',
      graphCoordinates: at,
      blocks: [
        { id: 'cond', type: 'Condition', items: [{ id: 'c1', outgoingEdgeId: 'e3' }] },
        { id: 'email', type: 'email input' },
      ],
    },
    { id: 'g3', title: 'No', graphCoordinates: at, blocks: [{ id: 'why', type: 'text input' }] },
    { id: 'g4', title: 'Age', graphCoordinates: at, blocks: [{ id: 'age', type: 'number input' }] },
  ],
  edges: [
    { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } },
    { id: 'e1', from: { blockId: 'choice', itemId: 'yes' }, to: { groupId: 'g2' } },
    { id: 'e2', from: { blockId: 'choice', itemId: 'no' }, to: { groupId: 'g3' } },
    { id: 'e3', from: { blockId: 'cond', itemId: 'c1' }, to: { groupId: 'g4' } },
  ],
  variables: [],
}

const finder = nextInputFinder(graph, (block) => block.type.endsWith(' input'))

test.group('Results drop-offs: the next input', () => {
  test('after the start, the first input of the flow', ({ assert }) => {
    assert.equal(finder.fromStart(), 'choice')
  })

  test("a choice follows the chosen item's path", ({ assert }) => {
    assert.equal(finder.after('choice', 'No'), 'why')
    // Through the Yes group: the condition's branch first (breadth first), then the email.
    assert.equal(finder.after('choice', 'Yes'), 'age')
  })

  test('an unknown answer walks every path; the last input leads nowhere', ({ assert }) => {
    assert.oneOf(finder.after('choice', 'Maybe'), ['age', 'why', 'email'])
    assert.isNull(finder.after('why'))
    assert.isNull(finder.after('missing-block'))
  })
})

test.group('CSV export', () => {
  test('answers that would run as spreadsheet formulas are neutralised', async ({ assert }) => {
    const { spreadsheetSafe } = await import('#actions/results/export_results')
    assert.equal(spreadsheetSafe('=HYPERLINK("http://x")'), `'=HYPERLINK("http://x")`)
    assert.equal(spreadsheetSafe('+33 6 12'), "'+33 6 12")
    assert.equal(spreadsheetSafe('-1'), "'-1")
    assert.equal(spreadsheetSafe('@cmd'), "'@cmd")
    assert.equal(spreadsheetSafe('Ada'), 'Ada')
    assert.equal(spreadsheetSafe(''), '')
  })
})
