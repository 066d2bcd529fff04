import { test } from '@japa/runner'
import { buildContext, createVariableStore } from '#services/runner_context'
import type { AnyPlugin } from '#plugins/registry'

/*
| A runner's context: the parts most runners never use (signal, HTTP client, storage,
| sandbox) are made on first read, once, by getters shared by every context.
*/

const plugin = { id: 'test-plugin', name: 'Test', options: {} } as unknown as AnyPlugin

function context(signal?: AbortSignal) {
  const { store } = createVariableStore([{ id: 'v1', name: 'Name', value: 'Ada' }])
  return buildContext(
    { plugin, options: {}, variables: [], workspaceId: 'w1', signal, timeoutMs: 1000 },
    {},
    {},
    store,
    []
  )
}

test.group('Runner context', () => {
  test('the HTTP client, storage, sandbox and signal are made on first read, once', ({
    assert,
  }) => {
    const ctx = context()
    for (const part of ['http', 'storage', 'sandbox', 'signal'] as const) {
      const first = ctx[part]
      assert.isOk(first, part)
      assert.strictEqual(ctx[part], first, part)
    }
    assert.isFunction(ctx.http.request)
    assert.isFunction(ctx.storage.put)
    assert.isFunction(ctx.sandbox?.run)
    assert.isFalse(ctx.signal.aborted)
  })

  test('each context makes its own parts, through the same getters', ({ assert }) => {
    const first = context()
    const second = context()
    for (const part of ['http', 'storage', 'sandbox', 'signal'] as const) {
      const a = Object.getOwnPropertyDescriptor(first, part)!
      const b = Object.getOwnPropertyDescriptor(second, part)!
      assert.isFunction(a.get, part)
      assert.strictEqual(a.get, b.get, part)
      assert.notStrictEqual(first[part], second[part], part)
    }
  })

  test('a spread carries every part, and the signal follows the caller’s', ({ assert }) => {
    const caller = new AbortController()
    const ctx = context(caller.signal)
    const copy = { ...ctx }
    assert.strictEqual(copy.http, ctx.http)
    assert.strictEqual(copy.storage, ctx.storage)
    assert.strictEqual(copy.sandbox, ctx.sandbox)
    assert.strictEqual(copy.signal, ctx.signal)
    caller.abort()
    assert.isTrue(ctx.signal.aborted)
  })
})
