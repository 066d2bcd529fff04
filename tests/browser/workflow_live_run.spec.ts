import { test } from '@japa/runner'
import env from '#start/env'
import { closeQueue, startWorkers } from '#queue/queue'
import { signInWithLink } from '#tests/browser/helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

/**
 * A run started by a webhook call shows on the open canvas node by node. The editor polls
 * only runs started by its own Run button, so what appears here came over the workflow's
 * server-sent events channel.
 */
test.group('Workflow editor: live runs', (group) => {
  // Tests start no queue workers of their own accord: webhook runs need them.
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a webhook-triggered run is shown live on the canvas', async ({ visit, assert }) => {
    const workflow = await publishedWorkflow([
      { id: 'hook', type: 'webhook-trigger', options: { method: 'POST' } },
      {
        id: 'pause',
        type: 'workflow-wait',
        options: { resume: 'interval', amount: 2, unit: 'seconds' },
      },
      { id: 'after', type: 'workflow-script', options: { code: 'return { done: true }' } },
    ])
    const page = await visit('/signin')
    await signInWithLink(page, workflow.email)
    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="after"]').waitFor()
    // The stream is open and subscribed before anything runs.
    await page.locator('[data-testid="workflow-run"][data-stream="live"]').waitFor()

    const node = (id: string, status: string) =>
      page.locator(
        `[data-testid="workflow-node"][data-node-id="${id}"][data-run-status="${status}"]`
      )

    // Every status each node shows, in order, and what the last node showed when the wait
    // was parked: on a loaded machine the 2 s wait can show for less than one of Playwright's
    // polls, so the page itself keeps the history.
    await page.evaluate(() => {
      const seen: Record<string, string[]> = {}
      const state = { seen, afterWhilePaused: 'unset' as string | null }
      Object.assign(window, { runHistory: state })
      const look = () => {
        for (const element of document.querySelectorAll('[data-testid="workflow-node"]')) {
          const id = element.getAttribute('data-node-id') ?? ''
          const status = element.getAttribute('data-run-status')
          if (!status) continue
          const list = (seen[id] ??= [])
          if (list.at(-1) === status) continue
          list.push(status)
          if (id === 'pause' && status === 'waiting') {
            state.afterWhilePaused = document
              .querySelector('[data-testid="workflow-node"][data-node-id="after"]')!
              .getAttribute('data-run-status')
          }
        }
      }
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-run-status'],
      })
    })

    const base = `http://${env.get('HOST')}:${env.get('PORT')}`
    const called = await fetch(`${base}/api/v1/workflows/${workflow.id}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: 7 }),
    })
    assert.equal(called.status, 202)

    // Node by node: the trigger done, the wait parked while the last node had not run, then,
    // 2 s later, the wait resumed and the run finished.
    await node('hook', 'success').waitFor({ timeout: 10_000 })
    await node('pause', 'success').waitFor({ timeout: 15_000 })
    await node('after', 'success').waitFor({ timeout: 10_000 })
    const history = await page.evaluate(
      () =>
        (
          window as unknown as {
            runHistory: { seen: Record<string, string[]>; afterWhilePaused: string | null }
          }
        ).runHistory
    )
    // A node may show 'running' for a moment or not at all (one render can take both events).
    const settled = (id: string) => history.seen[id].filter((status) => status !== 'running')
    assert.deepEqual(settled('hook'), ['success'])
    assert.deepEqual(settled('pause'), ['waiting', 'success'])
    assert.deepEqual(settled('after'), ['success'])
    assert.isNull(history.afterWhilePaused)

    // The run is in the runs page with its nodes' records.
    await page.getByTestId('workflow-runs-link').click()
    await page.waitForURL(new RegExp(`/workflows/${workflow.id}/runs`))
    await page.locator('[data-testid="run-row"][data-status="success"]').waitFor()
    await page.locator('[data-testid="run-detail"]').waitFor()
    const nodes = page.locator('[data-testid="run-node"]')
    assert.equal(await nodes.count(), 3)
    await page.locator('[data-testid="run-node"][data-node-id="after"] summary').click()
    const output = page.locator(
      '[data-testid="run-node"][data-node-id="after"] [data-testid="node-output"]'
    )
    assert.deepEqual(JSON.parse((await output.textContent()) ?? 'null'), { done: true })
    const input = page.locator('[data-testid="run-input"]')
    assert.include((await input.textContent()) ?? '', '"order": 7')
  })
})
