import { test } from '@japa/runner'
import { evaluateCondition } from '#engine/bot/conditions'

/** The left side of a comparison: a variable id as stored so far, or an expression. */

const variables = [
  { id: 'v1', name: 'First', value: 'Ada' },
  { id: 'v2', name: 'Last', value: 'Lovelace' },
  { id: 'v3', name: 'Tags', value: ['vip', 'new'] },
]

const holds = (variableId: string, comparisonOperator: string, value = '') =>
  evaluateCondition({ comparisons: [{ variableId, comparisonOperator, value }] }, variables)

test.group('Bot engine / condition subjects', () => {
  test('a variable id compares that variable, as conditions saved before did', ({ assert }) => {
    assert.isTrue(holds('v1', 'Equal to', 'ada'))
    assert.isFalse(holds('v1', 'Equal to', 'Grace'))
  })

  test('an expression compares its text; one whole reference keeps a list a list', ({ assert }) => {
    assert.isTrue(holds('{{First}} {{Last}}', 'Equal to', 'Ada Lovelace'))
    assert.isTrue(holds('{{ Tags }}', 'Equal to', 'vip'))
    assert.isFalse(holds('{{Tags}}', 'Equal to', 'vip, new'))
    // Text around it: one text, the list joined.
    assert.isTrue(holds('Tags: {{Tags}}', 'Equal to', 'Tags: vip, new'))
    assert.isTrue(holds('{{Missing}}', 'Is empty'))
    // Neither an id nor an expression: nothing to compare.
    assert.isFalse(holds('Unknown', 'Is set'))
  })
})
