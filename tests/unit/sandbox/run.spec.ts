import { test } from '@japa/runner'
import { SandboxPool } from '#sandbox/pool'
import { disposeSandbox, evaluateExpression, runInSandbox } from '#sandbox/sandbox'

test.group('Sandbox | running code', (group) => {
  const pool = new SandboxPool({ size: 2 })
  group.teardown(() => pool.dispose())

  test('variables go in, the returned value comes out', async ({ assert }) => {
    const result = await pool.run('return variables.a + variables.b + variables.name.length', {
      variables: { a: 1, b: 2, name: 'four' },
    })
    assert.deepEqual(result.ok && result.value, 7)
  })

  test('tool arguments are available as args and as named parameters', async ({ assert }) => {
    const result = await pool.run(
      'return city.toUpperCase() + args.count + (typeof class_ === "undefined")',
      {
        args: { 'city': 'paris', 'count': 3, 'not valid': 1 },
      }
    )
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value, 'PARIS3true')
  })

  test('console output is captured with its level', async ({ assert }) => {
    const result = await pool.run(
      'console.log("a", 1, { b: [2] }); console.info("i"); console.warn("w"); console.error(new Error("e").message); return null'
    )
    assert.deepEqual(result.logs, [
      { level: 'log', message: 'a 1 {"b":[2]}' },
      { level: 'info', message: 'i' },
      { level: 'warn', message: 'w' },
      { level: 'error', message: 'e' },
    ])
  })

  test('console output is bounded in count and size', async ({ assert }) => {
    const result = await pool.run(
      'for (let i = 0; i < 1000; i++) console.log("x".repeat(10000)); return 1'
    )
    assert.isTrue(result.ok)
    assert.isAtMost(result.logs.length, 101)
    assert.isTrue(result.logs.every((log) => log.message.length <= 2001))
    assert.match(result.logs.at(-1)!.message, /dropped/)
  })

  test('await and async helpers work, setTimeout included', async ({ assert }) => {
    const result = await pool.run(`
      const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
      const started = Date.now()
      await wait(30)
      const values = await Promise.all([1, 2, 3].map(async (n) => n * 2))
      return { values, waited: Date.now() - started >= 25 }
    `)
    assert.deepEqual(result.ok && result.value, { values: [2, 4, 6], waited: true })
  })

  test('errors come back as { ok: false } with name and message', async ({ assert }) => {
    const thrown = await pool.run('throw new TypeError("bad input")')
    assert.deepEqual(!thrown.ok && thrown.error, { name: 'TypeError', message: 'bad input' })

    const rejected = await pool.run('await Promise.reject(new RangeError("nope"))')
    assert.deepEqual(!rejected.ok && rejected.error, { name: 'RangeError', message: 'nope' })

    const notAnError = await pool.run('throw "plain string"')
    assert.deepEqual(!notAnError.ok && notAnError.error, { name: 'Error', message: 'plain string' })

    const syntax = await pool.run('return (')
    assert.isFalse(syntax.ok)
    assert.equal(!syntax.ok && syntax.error.name, 'SyntaxError')

    const reference = await pool.run('return missingVariable + 1')
    assert.equal(!reference.ok && reference.error.name, 'ReferenceError')
  })

  test('results are JSON-compatible copies', async ({ assert }) => {
    const cases: [string, unknown][] = [
      ['return "text"', 'text'],
      ['return 1.5', 1.5],
      ['return false', false],
      ['return null', null],
      ['return [1, "a", null, undefined, () => 1]', [1, 'a', null, null, null]],
      [
        'return { a: 1, nested: { b: [true] }, dropped: undefined, fn() {} }',
        { a: 1, nested: { b: [true] } },
      ],
      ['return new Date(0)', '1970-01-01T00:00:00.000Z'],
      ['return new Map([[1, 2]])', {}],
      ['return NaN', null],
    ]
    for (const [code, expected] of cases) {
      const result = await pool.run(code)
      assert.isTrue(result.ok, code)
      assert.deepEqual(result.ok && result.value, expected, code)
    }
    for (const code of ['return undefined', 'return () => 1', 'return Symbol("s")', '']) {
      const result = await pool.run(code)
      assert.isTrue(result.ok, code)
      assert.isUndefined(result.ok && result.value, code)
    }
  })

  test('values JSON cannot express fail clearly', async ({ assert }) => {
    const cyclic = await pool.run('const a = {}; a.self = a; return a')
    assert.equal(!cyclic.ok && cyclic.error.name, 'TypeError')
    const bigint = await pool.run('return 10n')
    assert.equal(!bigint.ok && bigint.error.name, 'TypeError')
  })

  test('variables that cannot be copied are refused without running', async ({ assert }) => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const result = await pool.run('return 1', { variables: cyclic })
    assert.isFalse(result.ok)
    assert.match(!result.ok ? result.error.message : '', /could not be copied/)
  })

  test('setVariable records values in call order', async ({ assert }) => {
    const result = await pool.run(
      'setVariable("a", { list: [1, 2] }); setVariable("b", "text"); setVariable("a", 3)'
    )
    assert.isTrue(result.ok)
    assert.deepEqual(result.variablesSet, [
      { name: 'a', value: { list: [1, 2] } },
      { name: 'b', value: 'text' },
      { name: 'a', value: 3 },
    ])
  })

  test('nothing leaks from one run to the next', async ({ assert }) => {
    await pool.run(
      'globalThis.leftOver = 1; Object.prototype.leftOver = 2; Array.prototype.push = null; var declared = 3'
    )
    for (let i = 0; i < 4; i++) {
      const result = await pool.run(
        'const a = []; a.push(1); return [typeof leftOver, ({}).leftOver === undefined, typeof declared, a.length]'
      )
      assert.deepEqual(result.ok && result.value, ['undefined', true, 'undefined', 1])
    }
  })

  test('ten parallel runs give ten separate, correct results', async ({ assert }) => {
    const runs = Array.from({ length: 10 }, (_, i) =>
      pool.run(
        'await new Promise((r) => setTimeout(r, 5)); globalThis.seen = (globalThis.seen ?? 0) + 1; return { i: variables.i * 10, seen }',
        {
          variables: { i },
        }
      )
    )
    const results = await Promise.all(runs)
    results.forEach((result, i) =>
      assert.deepEqual(result.ok && result.value, { i: i * 10, seen: 1 })
    )
    assert.isAtMost(pool.stats().isolates, 2)
  })
})

test.group('Sandbox | expressions and the shared pool', (group) => {
  const tenant = { workspaceId: 'ws-expressions' }
  group.teardown(() => disposeSandbox())

  test('evaluateExpression evaluates an expression', async ({ assert }) => {
    const result = await evaluateExpression(
      'variables.price * variables.quantity',
      { price: 2.5, quantity: 4 },
      tenant
    )
    assert.deepEqual(result.ok && result.value, 10)
    const object = await evaluateExpression('{ a: 1 }', {}, tenant)
    assert.deepEqual(object.ok && object.value, { a: 1 })
    const trailing = await evaluateExpression('  "a" + "b";  ', {}, tenant)
    assert.equal(trailing.ok && trailing.value, 'ab')
  })

  test('evaluateExpression accepts a body with return', async ({ assert }) => {
    const result = await evaluateExpression(
      'const d = new Date(0); return d.getUTCFullYear()',
      {},
      tenant
    )
    assert.equal(result.ok && result.value, 1970)
    const wordReturnInString = await evaluateExpression('"return policy"', {}, tenant)
    assert.equal(wordReturnInString.ok && wordReturnInString.value, 'return policy')
  })

  test('runInSandbox uses the shared pool and works again after disposeSandbox', async ({
    assert,
  }) => {
    assert.equal((await runInSandbox('return 1', tenant)).ok && 1, 1)
    await disposeSandbox()
    const result = await runInSandbox('return variables.x', {
      variables: { x: 'again' },
      ...tenant,
    })
    assert.equal(result.ok && result.value, 'again')
  })

  test('a disposed pool refuses runs without throwing', async ({ assert }) => {
    const pool = new SandboxPool({ size: 1 })
    const running = pool.run('await new Promise(() => {})', { timeoutMs: 5000 })
    const waiting = pool.run('return 1')
    await new Promise((resolve) => setTimeout(resolve, 20))
    await pool.dispose()
    const [first, second, later] = await Promise.all([running, waiting, pool.run('return 2')])
    for (const result of [first, second, later]) {
      assert.isFalse(result.ok)
      assert.equal(!result.ok && result.error.name, 'SandboxError')
    }
  })
})
