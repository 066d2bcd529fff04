import { test } from '@japa/runner'
import { SandboxPool } from '#sandbox/pool'
import type { SandboxResult } from '#sandbox/types'

/** Failing safely: either an error result, or a value that carries nothing from the host. */
function assertNothingLeaked(assert: any, result: SandboxResult, code: string) {
  if (result.ok) {
    const text = JSON.stringify(result.value) ?? ''
    assert.notMatch(text, /\/work|node_modules|node:|"pid"|"env"|"argv"|versions/, code)
    assert.include([undefined, null, 'undefined', false], result.value as any, code)
  } else {
    assert.isString(result.error.name, code)
    assert.isString(result.error.message, code)
  }
}

test.group('Sandbox | escape attempts fail safely', (group) => {
  const pool = new SandboxPool({ size: 2 })
  group.teardown(() => pool.dispose())

  test('{code}')
    .with([
      { code: "return this.constructor.constructor('return process')()" },
      { code: "return ({}).constructor.constructor('return this')().process" },
      { code: "return require('fs')" },
      { code: "return (await import('fs')).readFileSync('/etc/passwd', 'utf8')" },
      { code: "return await import('node:child_process')" },
      { code: 'return globalThis.process' },
      { code: "return Function('return globalThis')().require" },
      { code: "return Function('return this')().process?.env" },
      { code: "return console.log.constructor('return process')()" },
      { code: "return setTimeout.constructor('return typeof require')() === 'function'" },
      { code: "return setVariable.constructor('return process')()" },
      { code: "return (async () => {}).constructor('return process')()" },
      { code: "return eval('process')" },
      {
        code: 'return typeof module !== "undefined" || typeof exports !== "undefined" || typeof __dirname !== "undefined"',
      },
      { code: 'return fetch("http://127.0.0.1")' },
      { code: 'return new XMLHttpRequest()' },
      { code: 'return Buffer.from("x")' },
      { code: 'return setImmediate(() => {})' },
      { code: 'return queueMicrotask(() => {})' },
      { code: 'return new SharedArrayBuffer(8)' },
      { code: 'return WebAssembly.Module' },
      { code: 'return Atomics.wait' },
      { code: 'return $0' },
      { code: 'return sleepRef' },
      { code: 'return hostLog' },
      { code: 'return arguments.callee.caller' },
      { code: 'try { null.x } catch (e) { return e.constructor.constructor("return process")() }' },
      {
        code: 'return Object.getOwnPropertyNames(globalThis).filter((n) => /^(process|require|module|Buffer|global)$/.test(n)).length > 0',
      },
    ])
    .run(async ({ assert }, { code }) => {
      const result = await pool.run(code, { timeoutMs: 1000 })
      assertNothingLeaked(assert, result, code)
    })

  test('host globals are not visible', async ({ assert }) => {
    const result = await pool.run(
      'return ["process", "require", "module", "Buffer", "global", "setImmediate", "setInterval", "fetch", "WebAssembly", "SharedArrayBuffer", "Atomics"].filter((n) => typeof globalThis[n] !== "undefined")'
    )
    assert.deepEqual(result.ok && result.value, [])
  })

  test('stack traces reveal no host paths', async ({ assert }) => {
    const result = await pool.run('return new Error("x").stack')
    assert.isTrue(result.ok)
    assert.notMatch(String(result.ok && result.value), /\/work|node_modules|node:/)
  })

  test('stack frames show only sandbox code', async ({ assert }) => {
    const result = await pool.run(`
      Error.prepareStackTrace = (error, frames) => frames.map((frame) => String(frame.getFileName()))
      return new Error('x').stack
    `)
    assert.isTrue(result.ok)
    const files = (result.ok ? result.value : []) as string[]
    assert.isAbove(files.length, 0)
    for (const file of files) assert.oneOf(file, ['sandbox:guest', 'undefined'])
  })

  test('prototype pollution inside does not reach the host', async ({ assert }) => {
    const result = await pool.run(`
      Object.prototype.polluted = 1
      Array.prototype.polluted = 1
      JSON.stringify = () => '"hijacked"'
      String.prototype.toString = () => 'hijacked'
      return { fine: true }
    `)
    assert.deepEqual(result.ok && result.value, { fine: true })
    assert.isUndefined(({} as any).polluted)
    assert.isUndefined(([] as any).polluted)
    assert.equal(JSON.stringify({ a: 1 }), '{"a":1}')
  })

  test('a __proto__ key in a result cannot pollute a caller that merges it', async ({ assert }) => {
    const result = await pool.run('return JSON.parse(\'{"__proto__": {"polluted": 1}, "a": 1}\')')
    assert.isTrue(result.ok)
    const merged = Object.assign({}, result.ok ? result.value : {})
    assert.isUndefined((merged as any).polluted)
    assert.isUndefined(({} as any).polluted)
    assert.deepEqual(result.ok && result.value, { a: 1 })
  })

  test("mutating passed-in variables does not change the caller's objects", async ({ assert }) => {
    const variables = { user: { name: 'Ada', tags: ['a'] }, count: 1 }
    const args = { list: [1, 2] }
    const result = await pool.run(
      `variables.user.name = 'Mallory'; variables.user.tags.push('b'); variables.count++; args.list.length = 0; delete variables.user
       return Object.keys(variables)`,
      { variables, args }
    )
    assert.deepEqual(result.ok && result.value, ['count'])
    assert.deepEqual(variables, { user: { name: 'Ada', tags: ['a'] }, count: 1 })
    assert.deepEqual(args, { list: [1, 2] })
  })

  test('a returned object is a copy, not a live reference', async ({ assert }) => {
    const first = await pool.run(
      'globalThis.shared = { n: 1 }; setTimeout(() => { shared.n = 2 }, 0); return shared'
    )
    assert.deepEqual(first.ok && first.value, { n: 1 })
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.deepEqual(first.ok && first.value, { n: 1 })
  })

  test('tampering with the guest protocol yields an error, not a crash', async ({ assert }) => {
    const result = await pool.run(`
      Promise.prototype.then = function () { throw new Error('tampered') }
      return 1
    `)
    assert.isBoolean(result.ok)
    const after = await pool.run('return 2')
    assert.equal(after.ok && after.value, 2)
  })

  test('the host process is untouched', async ({ assert }) => {
    const before = process.env.PATH
    await pool.run('try { process.env.PATH = "" } catch {} try { process.exit(1) } catch {}')
    assert.equal(process.env.PATH, before)
  })
})
