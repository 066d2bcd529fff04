import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import Workflow from '#models/workflow'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { PublishWorkflow } from '#actions/workflows/publish_workflow'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import { defaultWorkflowSettings } from '#shared/workflow/types'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 50; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

test.group('Workflow list in the browser', () => {
  test('create from the list, activation refused before publishing, search, delete', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('workflows')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)

    await page.goto('/workflows')
    await page.getByTestId('workflows-empty').waitFor()
    await page.getByTestId('create-workflow').first().click()
    await page.waitForURL(/\/workflows\/[a-z0-9]+$/)
    const createdId = page.url().split('/').pop()!
    assert.equal((await Workflow.findOrFail(createdId)).workspaceId, workspace.id)

    const draft = await new CreateWorkflow().handle(user, workspace, { name: 'Invoice reminders' })
    const live = await new CreateWorkflow().handle(user, workspace, {
      content: {
        name: 'Newsletter digest',
        blocks: [{ id: 'start', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } }],
        edges: [],
        variables: [],
        settings: defaultWorkflowSettings(),
      },
    })
    await new PublishWorkflow().handle(user, workspace, live)

    await page.goto('/workflows')
    const rows = page.getByTestId('workflow-row')
    await rows.filter({ hasText: 'Invoice reminders' }).waitFor()
    assert.equal(await rows.count(), 3)

    // A draft cannot be activated: the switch moves back and the reason shows.
    const draftRow = rows.filter({ hasText: 'Invoice reminders' })
    assert.equal(await draftRow.getByTestId('workflow-status').innerText(), 'Draft')
    await draftRow.getByTestId('workflow-active').click()
    await page.getByText('Publish the workflow before activating it').waitFor()
    await waitFor(
      async () =>
        (await draftRow.getByTestId('workflow-active').getAttribute('aria-checked')) === 'false',
      'the switch to move back'
    )
    assert.isFalse((await Workflow.findOrFail(draft.id)).isActive)

    // A published one can.
    const liveRow = rows.filter({ hasText: 'Newsletter digest' })
    assert.equal(await liveRow.getByTestId('workflow-status').innerText(), 'Published')
    await liveRow.getByTestId('workflow-active').click()
    await waitFor(async () => (await Workflow.findOrFail(live.id)).isActive, 'the activation')

    // Its draft edited: the row says so, and it stays active.
    const stored = await Workflow.findOrFail(live.id)
    await new UpdateWorkflow().handle(user, workspace, stored, {
      blocks: stored.blocks.map((block) => ({ ...block, title: 'Start here' })),
    })
    await page.reload()
    await liveRow.getByTestId('workflow-status').waitFor()
    assert.equal(
      await liveRow.getByTestId('workflow-status').innerText(),
      'Draft — unpublished changes'
    )
    assert.equal(await liveRow.getByTestId('workflow-active').getAttribute('aria-checked'), 'true')
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.screenshot({ path: app.makePath('docs/screenshots/workflows-list.png') })

    await page.getByTestId('workflow-search').fill('news')
    await waitFor(async () => (await rows.count()) === 1, 'the search')
    assert.include(await rows.first().innerText(), 'Newsletter digest')
    assert.include(page.url(), 'q=news')

    await page.getByTestId('workflow-search').fill('nothing like this')
    await page.getByTestId('workflows-no-match').waitFor()
    await page.getByTestId('workflow-search').fill('')
    await waitFor(async () => (await rows.count()) === 3, 'the full list')

    await draftRow.getByTestId('workflow-menu').click()
    await page.getByTestId('workflow-delete').click()
    await page.getByTestId('confirm-action').click()
    await page.getByText('Workflow deleted').waitFor()
    await waitFor(async () => (await rows.count()) === 2, 'the row to go')
    assert.isNull(await Workflow.find(draft.id))
  })
})
