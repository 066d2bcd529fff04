import { test } from '@japa/runner'
import { HttpContextFactory, RequestFactory } from '@adonisjs/core/factories/http'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/* The public endpoints' lazy context properties: made once on first read, never if unread. */
test.group('Public API requests', () => {
  test('a lazy property is made once, on first read, for its own context', ({ assert }) => {
    const ctx = new HttpContextFactory().create()
    const other = new HttpContextFactory().create()
    let made = 0
    const install = lazyContextProperty('bouncer', (of) => {
      made++
      return { marker: made, same: of === ctx } as any
    })
    install(ctx)
    install(other)
    assert.equal(made, 0)
    assert.deepEqual(ctx.bouncer as any, { marker: 1, same: true })
    assert.deepEqual(ctx.bouncer as any, { marker: 1, same: true })
    assert.equal(made, 1)
    assert.deepEqual(other.bouncer as any, { marker: 2, same: false })
  })

  test('every context gets the same accessor, not a closure of its own', ({ assert }) => {
    // A closure per request kept each request alive through V8's young-generation GCs.
    const install = lazyContextProperty('bouncer', () => ({}) as any)
    const first = new HttpContextFactory().create()
    const second = new HttpContextFactory().create()
    install(first)
    install(second)
    const a = Object.getOwnPropertyDescriptor(first, 'bouncer')!
    const b = Object.getOwnPropertyDescriptor(second, 'bouncer')!
    assert.isFunction(a.get)
    assert.strictEqual(a.get, b.get)
    assert.strictEqual(a.set, b.set)
  })

  test('an assignment replaces a lazy property without making it', ({ assert }) => {
    const ctx = new HttpContextFactory().create()
    let made = 0
    lazyContextProperty('bouncer', () => {
      made++
      return {} as any
    })(ctx)
    ctx.bouncer = { assigned: true } as any
    assert.deepEqual(ctx.bouncer as any, { assigned: true })
    assert.equal(made, 0)
  })

  test('chat and webhook paths are public; the app and its API are not', ({ assert }) => {
    const at = (url: string) => {
      const request = new RequestFactory().merge({ url }).create()
      return isPublicApiRequest(new HttpContextFactory().merge({ request }).create())
    }
    assert.isTrue(at('/api/v1/typebots/my-bot/startChat'))
    assert.isTrue(at('/api/v1/sessions/abc/continueChat'))
    assert.isTrue(at('/api/v2/sessions/abc/streamMessage'))
    assert.isFalse(at('/api/v1/typebots/abc/preview/startChat'))
    assert.isFalse(at('/api/v1/bots'))
    assert.isFalse(at('/workflows'))
  })
})
