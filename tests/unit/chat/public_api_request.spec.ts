import { test } from '@japa/runner'
import { HttpContextFactory, RequestFactory } from '@adonisjs/core/factories/http'
import { isPublicApiRequest, lazyContextProperty } from '#middleware/public_api_request'

/* The public endpoints' lazy context properties: made once on first read, never if unread. */
test.group('Public API requests', () => {
  test('a lazy property is made once, on first read', ({ assert }) => {
    const ctx = new HttpContextFactory().create()
    let made = 0
    lazyContextProperty(ctx, 'bouncer', () => {
      made++
      return { marker: made } as any
    })
    assert.equal(made, 0)
    assert.deepEqual(ctx.bouncer as any, { marker: 1 })
    assert.deepEqual(ctx.bouncer as any, { marker: 1 })
    assert.equal(made, 1)
  })

  test('an assignment replaces a lazy property without making it', ({ assert }) => {
    const ctx = new HttpContextFactory().create()
    let made = 0
    lazyContextProperty(ctx, 'bouncer', () => {
      made++
      return {} as any
    })
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
