import { test } from '@japa/runner'
import { HttpContextFactory } from '@adonisjs/core/factories/http'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { middlewareChain } from '#middleware/middleware_chain'

/*
| The kernel's middleware lists, run as one middleware (start/kernel.ts): each member made
| once, called in order, and its errors answered at its own level as the framework does.
*/

function recorder() {
  const calls: string[] = []
  let made = 0
  const member = (name: string, body?: (next: NextFn) => unknown) => async () => ({
    default: class {
      constructor() {
        made++
      }
      async handle(_ctx: HttpContext, next: NextFn) {
        calls.push(`${name} in`)
        await (body ? body(next) : next())
        calls.push(`${name} out`)
      }
    },
  })
  const handled: unknown[] = []
  const exceptions = async () => ({
    default: class {
      report() {}
      handle(error: unknown) {
        handled.push((error as Error).message)
      }
    },
  })
  return { calls, handled, member, exceptions, made: () => made }
}

async function run(chain: ReturnType<typeof middlewareChain>, ctx: HttpContext, next: NextFn) {
  const Chain = (await chain()).default
  return new Chain().handle(ctx, next)
}

test.group('Middleware chain', () => {
  test('members run in order around the rest, each made once', async ({ assert }) => {
    const r = recorder()
    const chain = middlewareChain(r.exceptions, [r.member('a'), r.member('b')])
    const ctx = new HttpContextFactory().create()
    await run(chain, ctx, async () => {
      r.calls.push('route')
    })
    await run(chain, ctx, async () => {
      r.calls.push('route')
    })
    assert.deepEqual(r.calls.slice(0, 5), ['a in', 'b in', 'route', 'b out', 'a out'])
    assert.lengthOf(r.calls, 10)
    assert.equal(r.made(), 2)
  })

  test('an error is answered at its member, and the members before it go on', async ({
    assert,
  }) => {
    const r = recorder()
    const chain = middlewareChain(r.exceptions, [
      r.member('session'),
      r.member('shield', () => {
        throw new Error('bad token')
      }),
      r.member('never'),
    ])
    await run(chain, new HttpContextFactory().create(), async () => {
      r.calls.push('route')
    })
    assert.deepEqual(r.handled, ['bad token'])
    // The session's work after next() still runs (it commits flash messages there).
    assert.deepEqual(r.calls, ['session in', 'shield in', 'session out'])
  })

  test('next() runs the rest once, however often it is called', async ({ assert }) => {
    const r = recorder()
    const chain = middlewareChain(r.exceptions, [
      r.member('twice', async (next) => {
        await next()
        await next()
      }),
    ])
    let routes = 0
    await run(chain, new HttpContextFactory().create(), async () => {
      routes++
    })
    assert.equal(routes, 1)
  })
})
