import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Locator, Page } from 'playwright'
import Workflow from '#models/workflow'
import User from '#models/user'
import type { WorkflowEdge } from '#shared/workflow/types'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { nodeOfType, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import Credential from '#models/credential'
import { encryptCredentials } from '#plugins/vault'
import env from '#start/env'

/** A real pointer drag from a handle, let go over the middle of a node (not its dot). */
async function dragOntoNode(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!
  const end = (await to.boundingBox())!
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
  await page.mouse.down()
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 15 })
  await page.mouse.up()
}

const edgeKey = (edge: WorkflowEdge) =>
  [
    edge.from.blockId,
    edge.from.conditionId ?? '',
    edge.to.blockId,
    edge.isAttachment ? `attach:${edge.attachmentName}` : '',
  ].join(' ')

/** A workflow of six unconnected nodes: trigger, condition, two actions, an agent, a model. */
async function seedWorkflow(page: Page) {
  const email = uniqueEmail('wfcanvas')
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Canvas' })
  const encrypted = encryptCredentials({ apiKey: 'sk-test' }, env.get('ENCRYPTION_SECRET'))
  const credential = await Credential.create({
    workspaceId: workspace.id,
    userId: user.id,
    type: 'openai',
    name: 'OpenAI',
    iv: encrypted.iv,
    data: encrypted.data,
  })
  workflow.merge({
    blocks: [
      { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
      {
        id: 'cond',
        type: 'workflow-condition',
        graphCoordinates: { x: 340, y: 0 },
        conditions: [{ id: 'yes', content: { comparisons: [], logicalOperator: 'AND' } }],
      },
      // Required fields filled: publishing refuses nodes without them (docs/plugins.md).
      {
        id: 'http',
        type: 'workflow-http-request',
        graphCoordinates: { x: 700, y: -140 },
        options: { method: 'POST', url: 'https://example.com/hook' },
      },
      {
        id: 'agent',
        type: 'workflow-llm-agent',
        graphCoordinates: { x: 700, y: 120 },
        options: { userQuery: '{{$input.question}}' },
      },
      {
        id: 'mail',
        type: 'send-email',
        graphCoordinates: { x: 1060, y: -140 },
        options: { to: 'ops@example.com', subject: 'New order' },
      },
      {
        id: 'model',
        type: 'openai-chat-model',
        graphCoordinates: { x: 700, y: 380 },
        options: { credentialsId: credential.id, model: 'gpt-4o-mini' },
      },
    ],
  })
  await workflow.save()
  return workflow
}

test.group('Workflow editor canvas', () => {
  test('edges are drawn by dragging from every output onto a node', async ({ visit, assert }) => {
    const page = await visit('/signin')
    const workflow = await seedWorkflow(page)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    const node = (id: string) => page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`)
    await node('model').waitFor()
    const edges = page.locator('.react-flow__edge')
    await waitFor(async () => (await node('mail').boundingBox()) !== null, 'the measured nodes')

    // The trigger's output onto the condition's body.
    await dragOntoNode(page, node('trigger').getByTestId('node-handle-out'), node('cond'))
    await waitFor(async () => (await edges.count()) === 1, 'the main output edge')
    // A condition branch onto the HTTP node, its "otherwise" onto the agent.
    await dragOntoNode(page, node('cond').getByTestId('node-handle-branch'), node('http'))
    await waitFor(async () => (await edges.count()) === 2, 'the branch edge')
    await dragOntoNode(page, node('cond').getByTestId('node-handle-out'), node('agent'))
    await waitFor(async () => (await edges.count()) === 3, 'the otherwise edge')
    // The agent's Model slot onto the model node.
    await dragOntoNode(page, node('agent').getByTestId('node-handle-slot-model'), node('model'))
    await waitFor(async () => (await edges.count()) === 4, 'the attachment edge')
    // And onto an input dot, as before.
    await dragOntoNode(
      page,
      node('http').getByTestId('node-handle-out'),
      node('mail').getByTestId('node-handle-in')
    )
    await waitFor(async () => (await edges.count()) === 5, 'the edge onto a dot')
    // A trigger takes no input: letting go over it draws nothing.
    await dragOntoNode(page, node('mail').getByTestId('node-handle-out'), node('trigger'))
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(await edges.count(), 5)

    await hideTab(page)
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).edges.length === 5,
      'the autosave'
    )
    const saved = await Workflow.findOrFail(workflow.id)
    assert.sameMembers(
      saved.edges.map(edgeKey),
      [
        'trigger  cond ',
        'cond yes http ',
        'cond  agent ',
        'agent  model attach:model',
        'http  mail ',
      ],
      saved.edges.map(edgeKey).join('\n')
    )
  })

  test('click to connect: the hint says what to do, a click on a node ends it', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    const workflow = await seedWorkflow(page)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    const node = (id: string) => page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`)
    await node('cond').waitFor()

    const handle = node('trigger').getByTestId('node-handle-out')
    assert.match((await handle.getAttribute('title')) ?? '', /drag/i)
    await handle.click()
    await page.getByTestId('connect-hint').waitFor()
    assert.include((await handle.getAttribute('class')) ?? '', 'clickconnecting')
    await node('cond').getByTestId('node-title').click()
    await page.getByTestId('connect-hint').waitFor({ state: 'detached' })
    await waitFor(
      async () => (await page.locator('.react-flow__edge').count()) === 1,
      'the clicked edge'
    )
    // The click connected; it did not open the node's settings.
    assert.equal(await page.getByTestId('node-settings').count(), 0)

    await hideTab(page)
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).edges.length === 1,
      'the autosave'
    )
    const [edge] = (await Workflow.findOrFail(workflow.id)).edges
    assert.deepEqual([edge.from.blockId, edge.to.blockId], ['trigger', 'cond'])
  })

  test('fit view and controls at 1440 and 390 px; the palette is a drawer on a phone', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    const workflow = await seedWorkflow(page)
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height })
      await page.goto(`/workflows/${workflow.id}`)
      await nodeOfType(page, 'manual-trigger').waitFor()
      const canvas = (await page.getByTestId('workflow-canvas').boundingBox())!
      // The canvas keeps the width of the screen on a phone: the palette is not beside it.
      assert.isAtLeast(canvas.width, width - 260, `canvas width at ${width}`)
      await waitFor(async () => {
        const trigger = (await nodeOfType(page, 'manual-trigger').boundingBox())!
        return trigger.x >= canvas.x && trigger.x + trigger.width <= canvas.x + canvas.width
      }, `the trigger inside the canvas at ${width}`)
      await page.screenshot({
        path: app.makePath(`docs/screenshots/workflow-editor-${width}.png`),
      })
      for (const control of ['zoomin', 'zoomout', 'fitview']) {
        const box = (await page.locator(`.react-flow__controls-${control}`).boundingBox())!
        const hit = await page.evaluate(
          ({ x, y, name }) =>
            !!document.elementFromPoint(x, y)?.closest(`.react-flow__controls-${name}`),
          { x: box.x + box.width / 2, y: box.y + box.height / 2, name: control }
        )
        assert.isTrue(
          hit,
          `${control} clickable at ${width}: ${await page.evaluate(
            ({ x, y }) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 200),
            { x: box.x + box.width / 2, y: box.y + box.height / 2 }
          )}`
        )
      }
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
      assert.isAtMost(scrollWidth, width)
    }

    // At 390 px the palette opens as a drawer, adds a node, and closes again.
    assert.isFalse(await page.getByTestId('node-palette').isVisible())
    await page.getByTestId('palette-open').click()
    await page.getByTestId('node-palette').waitFor()
    await page.getByTestId('palette-node-send-email').click()
    await page.getByTestId('node-palette').waitFor({ state: 'hidden' })
    await waitFor(async () => (await nodeOfType(page, 'send-email').count()) === 2, 'the new node')

    // The header's actions are reachable through its menu.
    await page.getByTestId('header-menu').click()
    await page.getByTestId('workflow-publish').waitFor()
    await page.getByTestId('workflow-settings-button').waitFor()
    for (const id of ['workflow-publish', 'workflow-settings-button', 'workflow-runs-link']) {
      const box = (await page.getByTestId(id).boundingBox())!
      assert.isAtMost(box.x + box.width, 390, `${id} on screen`)
    }
  })
})

test.group('Toasts', () => {
  test('an error toast goes once a later action succeeds, and when leaving the page', async ({
    visit,
  }) => {
    const page = await visit('/signin')
    const workflow = await seedWorkflow(page)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    const node = (id: string) => page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`)
    await node('model').waitFor()
    const errors = page.locator('[data-sonner-toast][data-type="error"]')

    // The agent has no model: publishing is refused with a reason, which stays on screen.
    await page.getByTestId('workflow-publish').click()
    await errors.first().waitFor()
    await dragOntoNode(page, node('trigger').getByTestId('node-handle-out'), node('cond'))
    await dragOntoNode(page, node('agent').getByTestId('node-handle-slot-model'), node('model'))
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 2, 'edges')
    await page.getByTestId('workflow-publish').click()
    await page.locator('[data-sonner-toast][data-type="success"]').first().waitFor()
    await errors.first().waitFor({ state: 'detached' })

    // Another refusal, then a visit to another page: the error does not follow.
    await page.locator('.react-flow__edge').last().click({ force: true })
    await page.getByTestId('delete-edge').click()
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 1, 'deleted')
    await page.getByTestId('workflow-publish').click()
    await errors.first().waitFor()
    await page.getByTestId('workflow-runs-link').click()
    await page.waitForURL(/\/runs$/)
    await errors.first().waitFor({ state: 'detached' })
  })
})
