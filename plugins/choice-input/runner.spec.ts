import { test } from '@japa/runner'
import { valuesOf } from '#sdk/inputs'
import { parse, run } from './runner.js'
import { parseAnswer, runBlock } from '#sdk/testing'

const items = [
  { id: 'i1', blockId: 'ch', content: 'Yes', outgoingEdgeId: 'e1' },
  { id: 'i2', blockId: 'ch', content: 'No', outgoingEdgeId: 'e2' },
  { id: 'i3', blockId: 'ch', content: 'Red, white and blue' },
  { id: 'i4', blockId: 'ch', content: 'Red' },
]

const vipOnly = {
  isEnabled: true,
  condition: { comparisons: [{ variableId: 'vip', comparisonOperator: 'Equal to', value: 'yes' }] },
}

test.group('Choice input runner', () => {
  test('shows the items whose display condition holds, without their condition', async ({
    assert,
  }) => {
    const withCondition = [
      { id: 'a', content: 'Everyone' },
      { id: 'b', content: 'VIP', displayCondition: vipOnly },
      {
        id: 'c',
        content: 'Off',
        displayCondition: { isEnabled: false, condition: vipOnly.condition },
      },
    ]
    const regular = await runBlock(run, {
      blockId: 'ch',
      items: withCondition,
      variables: [{ id: 'vip', name: 'VIP', value: 'no' }],
    })
    assert.deepEqual(regular.input!.items, [
      { id: 'a', content: 'Everyone' },
      { id: 'c', content: 'Off' },
    ])
    const vip = await runBlock(run, {
      blockId: 'ch',
      items: withCondition,
      variables: [{ id: 'vip', name: 'VIP', value: 'yes' }],
    })
    assert.deepEqual(
      vip.input!.items!.map((item) => item.id),
      ['a', 'b', 'c']
    )
  })

  test('skips the input when no item is left', async ({ assert }) => {
    const result = await runBlock(run, {
      items: [{ id: 'b', content: 'VIP', displayCondition: vipOnly }],
      variables: [{ id: 'vip', name: 'VIP', value: '' }],
    })
    assert.deepEqual(result, { skipInput: true })
    assert.deepEqual(await runBlock(run, { items: [] }), { skipInput: true })
  })

  test('builds one item per value of the dynamic variable', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'ch',
      items,
      options: { dynamicVariableId: 'list' },
      variables: [{ id: 'list', name: 'List', value: ['Paris', 'Rome', ''] }],
    })
    assert.deepEqual(result.input!.items, [
      { id: 'ch-dynamic-0', blockId: 'ch', content: 'Paris' },
      { id: 'ch-dynamic-1', blockId: 'ch', content: 'Rome' },
    ])
    const empty = await runBlock(run, {
      items,
      options: { dynamicVariableId: 'list' },
      variables: [{ id: 'list', name: 'List', value: null }],
    })
    assert.deepEqual(empty, { skipInput: true })
  })

  test('reads variable values as a list', ({ assert }) => {
    assert.deepEqual(valuesOf(['a', 'b']), ['a', 'b'])
    assert.deepEqual(valuesOf('["a", 2, null]'), ['a', '2'])
    assert.deepEqual(valuesOf('single'), ['single'])
    assert.deepEqual(valuesOf('[not json'), ['[not json'])
    assert.deepEqual(valuesOf(''), [])
    assert.deepEqual(valuesOf(undefined), [])
    assert.deepEqual(valuesOf(3), ['3'])
  })
})

test.group('Choice input parser', () => {
  test('single choice: matches a content case-insensitively, or an id', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, ' yes ', { items }), {
      status: 'success',
      value: 'Yes',
      outgoingEdgeId: 'e1',
    })
    assert.deepEqual(await parseAnswer(parse, 'i2', { items }), {
      status: 'success',
      value: 'No',
      outgoingEdgeId: 'e2',
    })
    // An item without its own edge leaves through the block's.
    assert.deepEqual(await parseAnswer(parse, 'red, white and blue', { items }), {
      status: 'success',
      value: 'Red, white and blue',
    })
  })

  test('single choice: refuses other answers', async ({ assert }) => {
    for (const answer of ['', 'Maybe', 'Yes, No', 'Ye']) {
      assert.equal((await parseAnswer(parse, answer, { items })).status, 'fail', answer)
    }
    assert.equal((await parseAnswer(parse, 'Yes', { items: [] })).status, 'fail')
  })

  test('multiple choice: several contents joined by commas', async ({ assert }) => {
    const options = { isMultipleChoice: true }
    assert.deepEqual(await parseAnswer(parse, 'yes, Red', { items, options }), {
      status: 'success',
      value: 'Yes, Red',
      variableValue: ['Yes', 'Red'],
    })
    // Contents holding commas are matched whole, the longest first.
    assert.deepEqual(await parseAnswer(parse, 'Red, white and blue, No', { items, options }), {
      status: 'success',
      value: 'Red, white and blue, No',
      variableValue: ['Red, white and blue', 'No'],
    })
    assert.deepEqual(await parseAnswer(parse, 'Red,No,red', { items, options }), {
      status: 'success',
      value: 'Red, No',
      variableValue: ['Red', 'No'],
    })
    // A trailing comma (a client joining as it goes) is harmless.
    assert.deepEqual(await parseAnswer(parse, 'Yes,', { items, options }), {
      status: 'success',
      value: 'Yes',
      variableValue: ['Yes'],
    })
    assert.deepEqual(await parseAnswer(parse, 'No', { items, options }), {
      status: 'success',
      value: 'No',
      variableValue: ['No'],
    })
  })

  test('multiple choice: a JSON array of contents or ids', async ({ assert }) => {
    assert.deepEqual(
      await parseAnswer(parse, '["Yes", "i3"]', { items, options: { isMultipleChoice: true } }),
      {
        status: 'success',
        value: 'Yes, Red, white and blue',
        variableValue: ['Yes', 'Red, white and blue'],
      }
    )
    assert.equal(
      (await parseAnswer(parse, '["Yes", "Nope"]', { items, options: { isMultipleChoice: true } }))
        .status,
      'fail'
    )
  })

  test('multiple choice: refuses unknown parts', async ({ assert }) => {
    const options = { isMultipleChoice: true }
    for (const answer of ['', 'Yes, Maybe', ', Yes', 'Red, white', 'Yes No']) {
      assert.equal((await parseAnswer(parse, answer, { items, options })).status, 'fail', answer)
    }
  })

  test('dynamic items are answered like the others', async ({ assert }) => {
    const shown = await runBlock(run, {
      blockId: 'ch',
      options: { dynamicVariableId: 'list' },
      variables: [{ id: 'list', name: 'List', value: ['Paris', 'Rome'] }],
    })
    assert.deepEqual(await parseAnswer(parse, 'rome', { items: shown.input!.items }), {
      status: 'success',
      value: 'Rome',
    })
  })
})
