import { test } from '@japa/runner'
import { parse, run } from './runner.js'
import { parseAnswer, runBlock } from '#sdk/testing'

const items = [
  { id: 'p1', pictureSrc: 'https://img.test/cat.png', title: 'Cat', outgoingEdgeId: 'e1' },
  { id: 'p2', pictureSrc: 'https://img.test/dog.png', title: 'Dog', description: 'Good boy' },
  { id: 'p3', pictureSrc: 'https://img.test/fish.png' },
]

test.group('Picture choice input runner', () => {
  test('filters items by their display condition', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'pc',
      items: [
        ...items,
        {
          id: 'p4',
          title: 'Hidden',
          displayCondition: {
            isEnabled: true,
            condition: { comparisons: [{ variableId: 'v', comparisonOperator: 'Is set' }] },
          },
        },
      ],
    })
    assert.deepEqual(result.input!.items, items)
  })

  test('builds items from the dynamic variables', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'pc',
      items,
      options: {
        dynamicItems: {
          isEnabled: true,
          pictureSrcsVariableId: 'srcs',
          titlesVariableId: 'titles',
          descriptionsVariableId: 'descriptions',
        },
      },
      variables: [
        { id: 'srcs', name: 'Srcs', value: ['https://img.test/a.png', 'https://img.test/b.png'] },
        { id: 'titles', name: 'Titles', value: ['A', 'B'] },
        { id: 'descriptions', name: 'Descriptions', value: ['First'] },
      ],
    })
    assert.deepEqual(result.input!.items, [
      {
        id: 'pc-dynamic-0',
        blockId: 'pc',
        pictureSrc: 'https://img.test/a.png',
        title: 'A',
        description: 'First',
      },
      { id: 'pc-dynamic-1', blockId: 'pc', pictureSrc: 'https://img.test/b.png', title: 'B' },
    ])
  })

  test('skips the input when the dynamic variables are empty', async ({ assert }) => {
    const result = await runBlock(run, {
      items,
      options: { dynamicItems: { isEnabled: true, pictureSrcsVariableId: 'srcs' } },
      variables: [{ id: 'srcs', name: 'Srcs', value: [] }],
    })
    assert.deepEqual(result, { skipInput: true })
  })
})

test.group('Picture choice input parser', () => {
  test('single choice: a title, a picture URL or an id', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, 'cat', { items }), {
      status: 'success',
      value: 'Cat',
      outgoingEdgeId: 'e1',
    })
    assert.deepEqual(await parseAnswer(parse, 'p2', { items }), { status: 'success', value: 'Dog' })
    // Without a title the picture's URL is the answer.
    assert.deepEqual(await parseAnswer(parse, 'https://img.test/fish.png', { items }), {
      status: 'success',
      value: 'https://img.test/fish.png',
    })
    assert.equal((await parseAnswer(parse, 'Bird', { items })).status, 'fail')
    assert.equal((await parseAnswer(parse, '', { items })).status, 'fail')
  })

  test('multiple choice: labels joined by commas', async ({ assert }) => {
    const options = { isMultipleChoice: true }
    assert.deepEqual(await parseAnswer(parse, 'Cat, dog', { items, options }), {
      status: 'success',
      value: 'Cat, Dog',
      variableValue: ['Cat', 'Dog'],
    })
    assert.equal((await parseAnswer(parse, 'Cat, Bird', { items, options })).status, 'fail')
  })
})
