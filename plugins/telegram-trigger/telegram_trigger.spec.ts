import { test } from '@japa/runner'
import { updateTypesOf } from './api.js'

test.group('Telegram trigger', () => {
  test('the update types asked of Telegram', ({ assert }) => {
    assert.deepEqual(updateTypesOf({}), ['message'])
    assert.deepEqual(updateTypesOf({ message: false, editedMessage: true, callbackQuery: true }), [
      'edited_message',
      'callback_query',
    ])
  })
})
