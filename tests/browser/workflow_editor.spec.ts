import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Workflow from '#models/workflow'
import WorkspaceMember from '#models/workspace_member'
import User from '#models/user'
import { omit, round2 } from '#shared/bot/graph'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { closeQueue, startWorkers } from '#queue/queue'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import {
  addFromPalette,
  closeSettings,
  drag,
  nodeOfType,
  waitFor,
} from '#tests/browser/workflow_helpers'
import { createUser, firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

async function fitView(page: Page) {
  await page.locator('.react-flow__controls-fitview').click()
}

test.group('Workflow editor in the browser', (group) => {
  // Tests start no queue workers of their own accord: the Run button's runs need them.
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  // One journey of about a hundred steps, near two minutes on a loaded 2-core machine: it has
  // twice the suite's time.
  test('build, connect, configure, autosave, publish, edit, undo/redo and restore', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('wfeditor')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    await page.setViewportSize({ width: 1280, height: 720 })

    // Created through the REST API with the browser session (XSRF header from the cookie).
    const created = await page.evaluate(async (workspaceId) => {
      const token = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((row) => row.startsWith('XSRF-TOKEN='))!
          .slice('XSRF-TOKEN='.length)
      )
      const response = await fetch('/api/v1/workflows', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Accept': 'application/json',
          'X-XSRF-TOKEN': token,
        },
        body: JSON.stringify({ workspaceId, name: 'Order router' }),
      })
      return { status: response.status, body: await response.json() }
    }, workspace.id)
    assert.equal(created.status, 201)
    const workflowId: string = created.body.workflow.id

    await page.goto(`/workflows/${workflowId}`)
    await page.getByTestId('workflow-canvas').waitFor()
    await page.getByTestId('canvas-empty').getByText('Add a trigger to start').waitFor()
    assert.equal(await page.getByTestId('workflow-status').getAttribute('data-status'), 'DRAFT')

    // Four nodes from the palette: a trigger, a condition and two actions.
    await addFromPalette(page, 'webhook-trigger')
    await page.getByTestId('canvas-empty').waitFor({ state: 'detached' })
    await page.getByTestId('node-form').getByTestId('field-secret').fill('s3cret')
    await addFromPalette(page, 'Condition')
    await addFromPalette(page, 'Webhook')
    await page
      .getByTestId('node-form')
      .getByTestId('field-webhook.url')
      .fill('https://example.com/hook')
    await addFromPalette(page, 'send-email')
    // Required fields: publishing refuses a node without them (docs/plugins.md, "Validation").
    await page.getByTestId('node-form').getByTestId('field-to').fill('ops@example.com')
    await page.getByTestId('node-form').getByTestId('field-subject').fill('New order')
    await closeSettings(page)
    await fitView(page)

    const trigger = nodeOfType(page, 'webhook-trigger')
    const condition = nodeOfType(page, 'Condition')
    const http = nodeOfType(page, 'Webhook')
    const mail = nodeOfType(page, 'send-email')
    const [triggerId, conditionId, httpId, mailId] = await Promise.all(
      [trigger, condition, http, mail].map((node) => node.getAttribute('data-node-id'))
    )

    // Edges drawn from handles: the trigger's output, then the condition's first branch.
    await drag(
      page,
      trigger.getByTestId('node-handle-out'),
      condition.getByTestId('node-handle-in')
    )
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 1, 'edge 1')
    await drag(
      page,
      condition.getByTestId('node-handle-branch'),
      http.getByTestId('node-handle-in')
    )
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 2, 'edge 2')

    // The keyboard way: the condition's "otherwise" path, from its settings panel.
    await condition.click()
    await page.getByTestId('node-settings').waitFor()
    await page.getByTestId('connect-select-out').click()
    await page.locator(`[data-testid="connect-option"][data-node-id="${mailId}"]`).click()
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 3, 'edge 3')

    // Configure a branch: the condition compares a new variable.
    await page.getByTestId('variables-button').click()
    await page.getByTestId('variable-new-name').fill('Status')
    await page.getByTestId('variable-add').click()
    await page.getByTestId('variable-row').waitFor()
    await page.keyboard.press('Escape')

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Workflow.findOrFail(workflowId)
      return saved.blocks.length === 4 && saved.edges.length === 3 && saved.variables.length === 1
    }, 'the autosave')
    const saved = await Workflow.findOrFail(workflowId)
    const webhook = saved.blocks.find((block) => block.id === triggerId)!
    assert.equal(webhook.options?.secret, 's3cret')
    assert.equal(
      (saved.blocks.find((block) => block.id === httpId)!.options?.webhook as { url?: string })
        ?.url,
      'https://example.com/hook'
    )
    const branchEdge = saved.edges.find((edge) => edge.from.conditionId)!
    assert.equal(branchEdge.from.blockId, conditionId)
    assert.equal(branchEdge.to.blockId, httpId)
    assert.deepEqual(
      saved.edges
        .filter((edge) => !edge.from.conditionId)
        .map((edge) => [edge.from.blockId, edge.to.blockId])
        .sort(),
      [
        [conditionId, mailId],
        [triggerId, conditionId],
      ].sort()
    )
    assert.equal(webhook.outgoingEdgeId, saved.edges.find((e) => e.from.blockId === triggerId)!.id)

    // Reload: the graph is what the server holds.
    await page.reload()
    await page.getByTestId('workflow-node').first().waitFor()
    assert.equal(await page.getByTestId('workflow-node').count(), 4)
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 3, 'edges')
    await page.screenshot({ path: 'tmp/workflow_editor.png' })

    // Activating a draft is refused with the reason.
    await page.getByTestId('workflow-active').click()
    await page.getByText('Publish the workflow before activating it').first().waitFor()
    assert.isFalse((await Workflow.findOrFail(workflowId)).isActive)

    // Publish, then activate.
    await page.getByTestId('workflow-publish').click()
    await page.locator('[data-testid="workflow-status"][data-status="PUBLISHED"]').waitFor()
    assert.equal((await Workflow.findOrFail(workflowId)).status, 'PUBLISHED')
    await page.getByTestId('workflow-active').click()
    await page.locator('[data-testid="workflow-active"][data-state="checked"]').waitFor()
    await waitFor(async () => !!(await Workflow.findOrFail(workflowId)).isActive, 'activation')

    // An edit of the graph: a duplicate (Ctrl+D) of the e-mail node at x+200, y+100.
    await mail.click()
    await page.getByTestId('node-settings').waitFor()
    await page.getByTestId('node-settings').focus()
    await page.keyboard.press('Control+d')
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 2, 'duplicate')
    await hideTab(page)
    // The draft has unpublished changes; the published version stays live and active.
    await page
      .locator(
        '[data-testid="workflow-status"][data-status="DRAFT"][data-unpublished-changes="true"]'
      )
      .waitFor()
    await page.locator('[data-testid="workflow-active"][data-state="checked"]').waitFor()
    const edited = await Workflow.findOrFail(workflowId)
    assert.equal(edited.status, 'DRAFT')
    assert.isTrue(!!edited.isActive)
    const original = edited.blocks.find((block) => block.id === mailId)!
    const copy = edited.blocks.find((b) => b.type === 'send-email' && b.id !== mailId)!
    assert.deepEqual(copy.graphCoordinates, {
      x: round2(original.graphCoordinates.x + 200),
      y: round2(original.graphCoordinates.y + 100),
    })
    assert.isFalse(edited.edges.some((edge) => edge.from.blockId === copy.id))

    // Undo and redo (buttons and keys).
    await closeSettings(page)
    await page.getByTestId('undo').click()
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 1, 'undo')
    await page.getByTestId('redo').click()
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 2, 'redo')
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } })
    await page.keyboard.press('Control+z')
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 1, 'Ctrl+Z')
    await page.keyboard.press('Control+y')
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 2, 'Ctrl+Y')

    // Delete removes the selected node.
    const copyNode = page.locator(`[data-testid="workflow-node"][data-node-id="${copy.id}"]`)
    await copyNode.click()
    await closeSettings(page)
    await page.locator(`.react-flow__node[data-id="${copy.id}"]`).focus()
    await page.keyboard.press('Delete')
    await copyNode.waitFor({ state: 'detached' })
    await hideTab(page)
    await waitFor(
      async () => (await Workflow.findOrFail(workflowId)).blocks.length === 4,
      'the deletion saved'
    )

    // Nothing left to autosave (it would be the last word over the copilot's change below).
    await page.locator('[data-testid="save-status"][data-status="saved"]').waitFor()

    // The copilot replaces the graph (a version of its own); the builder restores theirs.
    const stored = await Workflow.findOrFail(workflowId)
    await new UpdateWorkflow().handle(user, workspace, stored, {
      blocks: [
        omit(
          stored.blocks.find((block) => block.id === triggerId)!,
          'outgoingEdgeId'
        ),
      ],
      edges: [],
      updatedBy: 'assistant',
    })
    await page.reload()
    await page.getByTestId('workflow-node').first().waitFor()
    assert.equal(await page.getByTestId('workflow-node').count(), 1)
    await page.getByTestId('history-button').click()
    await page.getByTestId('history-version').nth(1).waitFor()
    const names = await page.getByTestId('history-version-name').allTextContents()
    // Every publish is a version: the builder's draft, the publish, the later edits, the copilot.
    assert.deepEqual(names, ['Version 4', 'Version 3', 'Version 2', 'Initial Version'])
    assert.deepEqual(
      await page
        .getByTestId('history-version')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind'))),
      ['assistant', 'draft', 'publish', 'draft']
    )
    const initial = page.getByTestId('history-version').nth(1)
    await initial.getByTestId('history-preview').click()
    const preview = page.getByTestId('version-preview')
    await preview.getByTestId('workflow-node').first().waitFor()
    assert.equal(await preview.getByTestId('workflow-node').count(), 4)
    await preview.getByTestId('version-preview-restore').click()
    await page.getByTestId('confirm-action').click()
    await waitFor(async () => (await page.getByTestId('workflow-node').count()) === 4, 'restore')
    const restored = await Workflow.findOrFail(workflowId)
    assert.equal(restored.blocks.length, 4)
    assert.equal(restored.edges.length, 3)
    assert.equal(restored.status, 'DRAFT')

    // Settings: a bad value is explained beside the field and not saved.
    await page.getByTestId('workflow-settings-button').click()
    await page.getByTestId('setting-retryCount').fill('-1')
    await page.getByTestId('setting-retryCount-error').waitFor()
    await page.getByTestId('setting-retryCount').fill('3')
    await page.getByTestId('setting-retentionDays').fill('14')
    await page.keyboard.press('Escape')
    await hideTab(page)
    await waitFor(async () => {
      const settings = (await Workflow.findOrFail(workflowId)).settings
      return settings.errorHandling?.retryCount === 3 && settings.logging?.retentionDays === 14
    }, 'the settings saved')

    // A test run of the draft from the editor (unpublished changes and all): node statuses appear.
    await page.getByTestId('workflow-run').click()
    await trigger.locator('[data-testid="node-status"][data-status="success"]').waitFor()
    const painted = await page.locator('[data-testid="node-status"]').count()
    assert.isAbove(painted, 0)

    // Dragging from the palette drops the node where it lands.
    await page
      .getByTestId('palette-node-Wait')
      .dragTo(page.getByTestId('workflow-canvas'), { targetPosition: { x: 300, y: 560 } })
    await nodeOfType(page, 'Wait').waitFor()
    await page.getByTestId('node-settings').getByTestId('node-form').waitFor()
  }).timeout(240_000)

  test('a read member sees the workflow read-only', async ({ visit, assert }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const workflow = await new CreateWorkflow().handle(owner, workspace, { name: 'Shared' })
    await new UpdateWorkflow().handle(owner, workspace, workflow, {
      blocks: [{ id: 'trigger1', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } }],
    })

    const email = uniqueEmail('wfreader')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const reader = await User.findByOrFail('email', email)
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: reader.id, role: 'GUEST' })

    await page.goto(`/workflows/${workflow.id}`)
    await page.getByTestId('readonly-banner').waitFor()
    await page.getByTestId('workflow-node').first().waitFor()
    for (const testId of [
      'node-palette',
      'workflow-publish',
      'undo',
      'node-menu',
      'workflow-run',
    ]) {
      assert.equal(await page.getByTestId(testId).count(), 0, `${testId} must not show`)
    }
    // Settings open for reading; nothing can be changed.
    await page.getByTestId('workflow-node').first().click()
    await page.getByTestId('node-settings').waitFor()
    assert.isTrue(await page.getByTestId('node-enabled').isDisabled())
    await page.keyboard.press('Delete')
    assert.equal(await page.getByTestId('workflow-node').count(), 1)
  })
})
