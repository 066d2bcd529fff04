import { test } from '@japa/runner'
import env from '#start/env'
import { closeQueue, startWorkers } from '#queue/queue'
import { signInWithLink } from '#tests/browser/helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'

test.group('Workflow runs: node names', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('run details name untitled nodes by their type name, never by a type id', async ({
    visit,
    assert,
  }) => {
    const workflow = await publishedWorkflow([
      { id: 'hook', type: 'webhook-trigger', options: { method: 'POST' } },
      { id: 'script', type: 'workflow-script', options: { code: 'return { done: true }' } },
    ])
    const base = `http://${env.get('HOST')}:${env.get('PORT')}`
    const called = await fetch(`${base}/api/v1/workflows/${workflow.id}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    })
    assert.equal(called.status, 202)

    const page = await visit('/signin')
    await signInWithLink(page, workflow.email)
    await page.goto(`/workflows/${workflow.id}/runs`)
    await page.locator('[data-testid="run-row"][data-status="success"]').waitFor()
    const summaries = page.locator('[data-testid="run-node"] summary')
    await summaries.first().waitFor()
    const texts = await summaries.allInnerTexts()
    assert.lengthOf(texts, 2)
    assert.include(texts.join('\n'), 'Webhook trigger')
    assert.include(texts.join('\n'), 'Script')
    for (const text of texts) {
      assert.notInclude(text, 'webhook-trigger')
      assert.notInclude(text, 'workflow-script')
    }
  })
})
