import { test } from '@japa/runner'
import { SandboxPool } from '#sandbox/pool'
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_MS } from '#sandbox/limits'

test.group('Sandbox | time and memory limits', (group) => {
  const pool = new SandboxPool({ size: 2 })
  group.teardown(() => pool.dispose())

  test('a runaway loop is stopped at the time-out: {code}')
    .with([
      { code: 'while (true) {}' },
      { code: 'for (;;) { Math.random() }' },
      { code: 'await null; while (true) {}' },
      { code: 'await new Promise((r) => setTimeout(r, 10)); while (true) {}' },
      { code: 'await new Promise(() => {})' },
      { code: 'const again = () => setTimeout(again, 0); again(); await new Promise(() => {})' },
      { code: 'try { while (true) {} } catch { return "caught" }' },
    ])
    .run(async ({ assert }, { code }) => {
      const started = performance.now()
      const result = await pool.run(code, { timeoutMs: 200 })
      const elapsed = performance.now() - started
      assert.isFalse(result.ok)
      assert.deepEqual(!result.ok && result.error, {
        name: 'TimeoutError',
        message: 'Script timed out after 200 ms',
      })
      // Stopped at the 200 ms time-out, far from the 10 s default, with room for a loaded machine.
      assert.isBelow(elapsed, 5000)
      const after = await pool.run('return "still working"')
      assert.equal(after.ok && after.value, 'still working')
    })

  test('the pool default time-out applies when a run gives none (10 000 ms unless configured)', async ({
    assert,
  }) => {
    assert.equal(DEFAULT_TIMEOUT_MS, 10_000)
    assert.equal(DEFAULT_MEMORY_MB, 32)
    const quick = new SandboxPool({ size: 1, defaultTimeoutMs: 150 })
    const result = await quick.run('while (true) {}')
    await quick.dispose()
    assert.equal(!result.ok && result.error.message, 'Script timed out after 150 ms')
  })

  test('a memory bomb is stopped at the limit and the pool still works: {label}')
    .with([
      {
        label: 'growing array',
        code: 'const a = []; while (true) a.push({ n: Math.random(), list: [1, 2, 3] })',
      },
      {
        label: 'array of big arrays',
        code: 'const a = []; while (true) a.push(new Array(1e5).fill(1.5))',
      },
      {
        label: 'growing strings',
        code: 'const a = []; let i = 0; while (true) a.push(("x".repeat(1e5) + i++).split("").join(""))',
      },
      { label: 'array buffers', code: 'const a = []; while (true) a.push(new Uint8Array(1e6))' },
      {
        label: 'doubling a flat string',
        code: 'let s = "ab"; const keep = []; while (true) { s = (s + s).split("").reverse().join(""); keep.push(s) }',
      },
    ])
    .run(async ({ assert }, { code }) => {
      const createdBefore = pool.stats().created
      // The memory limit must stop these, not the time-out: on a quiet machine each reaches
      // 32 MB in well under a second, on a 2-core machine at load average 10 a script gets a
      // fraction of a core and 'growing strings' once hit an 8 s time-out first.
      const result = await pool.run(code, { timeoutMs: 60_000 })
      assert.isFalse(result.ok)
      assert.deepEqual(!result.ok && result.error, {
        name: 'MemoryLimitError',
        message: 'Script exceeded the memory limit of 32 MB',
      })
      const after = await pool.run('return variables.n * 2', { variables: { n: 21 } })
      assert.equal(after.ok && after.value, 42)
      assert.isAbove(pool.stats().created, createdBefore, 'the breached isolate was replaced')
      assert.isAtMost(pool.stats().isolates, 2)
    })
    .timeout(90_000)

  test('the memory limit can be set per run', async ({ assert }) => {
    const code =
      'const a = []; for (let i = 0; i < 40; i++) a.push(new Array(1e5).fill(i + 0.5)); return a.length'
    const small = await pool.run(code, { memoryMb: 16, timeoutMs: 5000 })
    assert.equal(!small.ok && small.error.message, 'Script exceeded the memory limit of 16 MB')
    const large = await pool.run(code, { memoryMb: 128, timeoutMs: 5000 })
    assert.equal(large.ok && large.value, 40)
    assert.isAtMost(pool.stats().isolates, 2)
  }).timeout(15000)

  test('a runaway run does not block other runs', async ({ assert }) => {
    const runaway = pool.run('while (true) {}', { timeoutMs: 1000 })
    const quick = await Promise.all(
      Array.from({ length: 5 }, (_, i) => pool.run('return variables.i', { variables: { i } }))
    )
    quick.forEach((result, i) => assert.equal(result.ok && result.value, i))
    assert.isFalse((await runaway).ok)
  })

  test('pending timers are bounded', async ({ assert }) => {
    const result = await pool.run(
      'for (let i = 0; i < 1000; i++) setTimeout(() => {}, 1000); return 1',
      { timeoutMs: 500 }
    )
    assert.equal(!result.ok && result.error.name, 'RangeError')
  })

  test('isolates are recycled after maxRunsPerIsolate runs', async ({ assert }) => {
    const small = new SandboxPool({ size: 1, maxRunsPerIsolate: 3 })
    for (let i = 0; i < 7; i++) assert.isTrue((await small.run('return 1')).ok)
    assert.equal(small.stats().created, 3)
    await small.dispose()
  })
})
