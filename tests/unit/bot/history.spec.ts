import { test } from '@japa/runner'
import { canRedo, canUndo, createHistory, push, redo, undo } from '#shared/bot/history'
import { addGroup, deleteGroup, insertBlock, newBlock } from '#shared/bot/editing'
import { createBotContent } from '#shared/bot/new_bot'

test.group('Undo/redo history', () => {
  test('push records the present; undo and redo walk through it', ({ assert }) => {
    let history = createHistory(1)
    assert.isFalse(canUndo(history))
    history = push(push(history, 2), 3)
    assert.deepEqual(history, { past: [1, 2], present: 3, future: [] })
    history = undo(history)
    assert.deepEqual(history, { past: [1], present: 2, future: [3] })
    assert.isTrue(canRedo(history))
    history = redo(history)
    assert.deepEqual(history, { past: [1, 2], present: 3, future: [] })
    assert.strictEqual(redo(history), history)
    const fresh = createHistory(1)
    assert.strictEqual(undo(fresh), fresh)
  })

  test('a new change clears redo', ({ assert }) => {
    const history = push(undo(push(createHistory('a'), 'b')), 'c')
    assert.deepEqual(history, { past: ['a'], present: 'c', future: [] })
  })

  test('pushing the present itself records nothing', ({ assert }) => {
    const history = createHistory({ n: 1 })
    assert.strictEqual(push(history, history.present), history)
  })

  test('the past is capped', ({ assert }) => {
    let history = createHistory(0)
    for (let i = 1; i <= 150; i++) history = push(history, i)
    assert.lengthOf(history.past, 100)
    assert.equal(history.past[0], 50)
    assert.lengthOf(push(push(createHistory(0), 1, { limit: 1 }), 2, { limit: 1 }).past, 1)
  })

  test('undo skips states containing an empty group when possible', ({ assert }) => {
    const start = createBotContent()
    const withEmpty = addGroup(start, { coordinates: { x: 0, y: 0 }, id: 'g1' }).bot
    const filled = insertBlock(withEmpty, 'g1', 0, newBlock('text'))
    const removed = deleteGroup(filled, 'g1')
    let history = push(push(push(createHistory(start), withEmpty), filled), removed)
    history = undo(history)
    assert.strictEqual(history.present, filled)
    // withEmpty is passed over: straight back to the start.
    history = undo(history)
    assert.strictEqual(history.present, start)
    assert.deepEqual(history.future, [filled, removed])
    assert.strictEqual(redo(history).present, filled)
  })

  test('undo lands on an empty-group state when nothing else is left', ({ assert }) => {
    const withEmpty = addGroup(createBotContent(), { coordinates: { x: 0, y: 0 } }).bot
    const history = undo(push(createHistory(withEmpty), createBotContent()))
    assert.strictEqual(history.present, withEmpty)
  })

  test('a custom transient predicate works for other states', ({ assert }) => {
    const history = push(push(createHistory(1), -1), 2)
    assert.equal(undo(history, { isTransient: (n) => n < 0 }).present, 1)
  })
})
