import { test } from '@japa/runner'
import { awakeTimer } from '#services/awake_timer'

/** Blocks this process's event loop, as a starved process sees time pass without running. */
function busy(ms: number) {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

test.group('awakeTimer', () => {
  test('ends after its time when the process runs freely', async ({ assert }) => {
    const started = performance.now()
    await awakeTimer(300).done
    // At least the budget; the upper bound only says it did end.
    assert.isAtLeast(performance.now() - started, 290)
  })

  test('does not count time the process could not run', async ({ assert }) => {
    const started = performance.now()
    const timer = awakeTimer(400)
    let endedAt = 0
    timer.done.then(() => (endedAt = performance.now()))
    // A second without running counts as one late tick (150 ms of the 400).
    busy(1000)
    await timer.done
    // A wall-clock timer would have ended with the first tick after the block, at ~1,000 ms.
    assert.isAtLeast(endedAt - started, 1000 + 200)
  })

  test('cancel ends it at once', async ({ assert }) => {
    const timer = awakeTimer(60_000)
    const started = performance.now()
    timer.cancel()
    await timer.done
    assert.isBelow(performance.now() - started, 1000)
  })
})
