import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import User from '#models/user'
import Workflow from '#models/workflow'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { closeQueue, startWorkers } from '#queue/queue'
import { signInWithLink } from '#tests/browser/helpers'
import { closeSettings, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import type { WorkflowBlock } from '#shared/workflow/types'

/**
 * The node panel after a test run (issue 28, item 1 and the drag half of item 2): a node's
 * output seen in its panel, one of its fields dragged into a later node's field with the
 * pointer, and the mapped value in that node's output on the next run.
 */

async function signIn(visit: (url: string) => Promise<Page>, name: string) {
  const email = uniqueEmail(name)
  const page = await visit('/signin')
  page.setDefaultTimeout(60_000)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  await setUserPlan(user, 'UNLIMITED')
  return { page, user, workspace: await firstWorkspaceOf(user) }
}

/** manual trigger -> "Make order" (code) -> "Use order", as a builder left them. */
async function threeNodes(user: User, use: Pick<WorkflowBlock, 'type' | 'options'>) {
  const workspace = await firstWorkspaceOf(user)
  const created = await new CreateWorkflow().handle(user, workspace, { name: 'Orders' })
  const workflow = await Workflow.findOrFail(created.id)
  const node = (id: string, type: string, x: number, extra: Partial<WorkflowBlock> = {}) => ({
    id,
    type,
    graphCoordinates: { x, y: 120 },
    ...extra,
  })
  workflow.blocks = [
    node('start', 'manual-trigger', 0),
    node('make', 'Code', 260, {
      title: 'Make order',
      options: { content: "return { id: 'A-7', quantity: 42, customer: { name: 'Ada' } }" },
    }),
    node('use', use.type, 520, { title: 'Use order', options: use.options }),
  ]
  workflow.edges = [
    { id: 'e1', from: { blockId: 'start' }, to: { blockId: 'make' } },
    { id: 'e2', from: { blockId: 'make' }, to: { blockId: 'use' } },
  ]
  await workflow.save()
  return workflow
}

const canvasNode = (page: Page, id: string) =>
  page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`)

async function openNode(page: Page, id: string) {
  await closeSettings(page)
  await canvasNode(page, id).click()
  const panel = page.locator(`[data-testid="node-settings"][data-node-id="${id}"]`)
  await panel.waitFor()
  return panel
}

/** Starts a run with the Run button and waits for the node to be done on the canvas. */
async function runUntil(page: Page, id: string, status = 'success') {
  await page.getByTestId('workflow-run').click()
  await nodeWithStatus(page, id, status).waitFor()
}

const nodeWithStatus = (page: Page, id: string, status: string) =>
  page.locator(`[data-testid="workflow-node"][data-node-id="${id}"][data-run-status="${status}"]`)

/** The pointer drag a person makes: press on the handle, move in steps, release on the field. */
async function dragOnto(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!
  const end = (await to.boundingBox())!
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
  await page.mouse.down()
  await page.mouse.move(start.x + start.width / 2 + 10, start.y + start.height / 2 + 4)
  // Past the end of the text: the drop lands after it.
  await page.mouse.move(end.x + end.width - 8, end.y + end.height / 2, { steps: 15 })
  await page.mouse.up()
}

test.group('Workflow editor: node panel', (group) => {
  // Test runs go through the queue: its workers run them.
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('test run, see a node output, drag one of its fields into the next node, run again', async ({
    visit,
    assert,
  }) => {
    const { page, user } = await signIn(visit, 'node-panel')
    await page.setViewportSize({ width: 1440, height: 900 })
    const workflow = await threeNodes(user, {
      type: 'qr-code',
      options: { action: 'Generate a QR code', data: 'Quantity ' },
    })
    await page.goto(`/workflows/${workflow.id}`)
    await canvasNode(page, 'use').waitFor()

    // Before any run the panel says where its data will come from.
    let panel = await openNode(page, 'make')
    await panel.getByTestId('node-run-empty').waitFor()
    await closeSettings(page)

    await runUntil(page, 'use')

    // The second node's output, in its three views.
    panel = await openNode(page, 'make')
    const output = panel.getByTestId('node-output-data')
    await output.waitFor()
    assert.include(await output.innerText(), 'quantity')
    assert.include(await output.innerText(), '42')
    await panel.getByTestId('node-run-timing').waitFor()
    const outputPane = panel.getByTestId('node-output-pane')
    await outputPane.getByTestId('data-view-json').click()
    assert.deepEqual(JSON.parse(await panel.getByTestId('node-output-data').innerText()), {
      id: 'A-7',
      quantity: 42,
      customer: { name: 'Ada' },
    })
    await outputPane.getByTestId('data-view-schema').click()
    await panel.locator('[data-testid="node-output-data"][data-mode="schema"]').waitFor()
    assert.include(await panel.getByTestId('node-output-data').innerText(), 'customer')

    // The third node: its input is the second node's output; pick that node by name and
    // drag its "quantity" key into the code, with the pointer.
    panel = await openNode(page, 'use')
    await panel.getByTestId('node-input-source').selectOption('make')
    const key = panel.locator(
      '[data-testid="node-input-data"] [data-testid="data-key"][data-path="quantity"]'
    )
    await key.waitFor()
    // A text field of the node (the QR code's data): the drop lands after its text.
    const field = panel.getByTestId('field-data')
    await dragOnto(page, key, field)
    const expected = 'Quantity {{$node["Make order"].quantity}}'
    await waitFor(async () => (await field.inputValue()) === expected, 'the dropped reference')

    // Run again: the third node's output is the mapped value.
    const firstRun = await page.getByTestId('node-run-data').getAttribute('data-run-id')
    await page.getByTestId('workflow-run').click()
    await waitFor(
      async () =>
        (await page.getByTestId('node-run-data').getAttribute('data-run-id')) !== firstRun,
      'the second run'
    )
    await nodeWithStatus(page, 'use', 'success').waitFor()
    await panel.getByTestId('node-output-pane').getByTestId('data-view-json').click()
    const mapped = panel.getByTestId('node-output-data')
    await waitFor(
      async () => JSON.parse((await mapped.innerText()) || 'null')?.data === 'Quantity 42',
      'the mapped value in the output'
    )

    // Saved with the draft, as the builder left it.
    await waitFor(async () => {
      const saved = await Workflow.findOrFail(workflow.id)
      const use = saved.blocks.find((block) => block.id === 'use')
      return use?.options?.data === expected
    }, 'the saved mapping')
  })

  test('keyboard mapping, test this step, pinned trigger data, and the runs page', async ({
    visit,
    assert,
  }) => {
    const { page, user } = await signIn(visit, 'node-panel-keys')
    await page.setViewportSize({ width: 1440, height: 900 })
    const workflow = await threeNodes(user, {
      type: 'Code',
      options: { content: "throw new Error('Out of stock: ' + input.id) // customer: " },
    })
    await page.goto(`/workflows/${workflow.id}`)
    await canvasNode(page, 'use').waitFor()

    // Pin sample data on the trigger, typed as JSON.
    let panel = await openNode(page, 'start')
    await panel.getByTestId('node-pin-edit').click()
    await panel.getByTestId('node-pin-json').fill('{"name": "Pinned Ada"}')
    await panel.getByTestId('node-pin-save').click()
    await panel.getByTestId('node-pinned').waitFor()
    await canvasNode(page, 'start').getByTestId('node-pinned-mark').waitFor()

    // Test this step on the second node: only it and the trigger run.
    panel = await openNode(page, 'make')
    await panel.getByTestId('node-test-step').click()
    await nodeWithStatus(page, 'make', 'success').waitFor()
    assert.isNull(await canvasNode(page, 'use').getAttribute('data-run-status'))
    const input = panel.getByTestId('node-input-data')
    await waitFor(async () => (await input.innerText()).includes('Pinned Ada'), 'pinned input')

    // Keyboard: focus the third node's code, then Enter on a key of its input.
    panel = await openNode(page, 'use')
    const content = panel.locator('[data-testid="field-content-editor"] .cm-content')
    await panel.locator('[data-testid="field-content-editor"][data-state="ready"]').waitFor()
    await content.click()
    await page.keyboard.press('Control+End')
    const key = panel.locator(
      '[data-testid="node-input-data"] [data-testid="data-key"][data-path="customer"]'
    )
    await key.focus()
    await page.keyboard.press('Enter')
    await waitFor(
      // Script code is not substituted: the key goes in as the code that reads it.
      async () => (await content.innerText()).endsWith('// customer: input.customer'),
      'the reference inserted from the keyboard'
    )

    // A whole run: the third node fails, its panel shows the error.
    await runUntil(page, 'use', 'error')
    const error = panel.getByTestId('node-run-error')
    await error.waitFor()
    assert.include(await error.innerText(), 'Out of stock: A-7')

    // The test run is on the Runs page, marked, with the node's detail.
    await closeSettings(page)
    await page.getByTestId('workflow-runs-link').click()
    await page.waitForURL(new RegExp(`/workflows/${workflow.id}/runs`))
    const row = page.locator('[data-testid="run-row"]').first()
    await row.getByTestId('run-test-badge').waitFor()
    await page.locator('[data-testid="run-detail"]').waitFor()
    const trigger = page.locator('[data-testid="run-node"][data-node-id="start"]')
    await trigger.locator('summary').click()
    assert.deepEqual(JSON.parse(await trigger.getByTestId('node-output').innerText()), {
      name: 'Pinned Ada',
    })
    // And back in the editor with that run's data in the panels.
    await page.getByTestId('run-open-editor').click()
    await page.waitForURL(new RegExp(`/workflows/${workflow.id}\\?run=`))
    panel = await openNode(page, 'make')
    await waitFor(
      async () => (await panel.getByTestId('node-output-data').innerText()).includes('A-7'),
      'the opened run data'
    )
  })

  test('a key dragged into a script goes in as code, and the run computes from it', async ({
    visit,
    assert,
  }) => {
    const { page, user } = await signIn(visit, 'node-panel-code')
    await page.setViewportSize({ width: 1440, height: 900 })
    const workflow = await threeNodes(user, { type: 'Code', options: { content: 'return [' } })
    await page.goto(`/workflows/${workflow.id}`)
    await canvasNode(page, 'use').waitFor()
    // The unfinished script fails; the run still gives the data to map from.
    await runUntil(page, 'use', 'error')

    const panel = await openNode(page, 'use')
    const editor = panel.locator('[data-testid="field-content-editor"][data-state="ready"]')
    await editor.waitFor()
    const content = editor.locator('.cm-content')
    assert.equal(await content.getAttribute('data-variables'), 'names')

    // Its input's "quantity", dragged with the pointer to the end of the code.
    const quantity = panel.locator(
      '[data-testid="node-input-data"] [data-testid="data-key"][data-path="quantity"]'
    )
    await quantity.waitFor()
    await dragOnto(page, quantity, content)
    await waitFor(
      async () => (await content.innerText()) === 'return [input.quantity',
      'the dropped key as code'
    )

    // Then a field of the earlier node by its title, from the keyboard.
    await content.click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type(' * 2, ')
    await panel.getByTestId('node-input-source').selectOption('make')
    await panel.getByTestId('node-input-pane').getByTestId('data-view-schema').click()
    const name = panel.locator(
      '[data-testid="node-input-data"] [data-testid="data-key"][data-path="customer.name"]'
    )
    await name.focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Control+End')
    await page.keyboard.type(']')
    const code = 'return [input.quantity * 2, $node["Make order"].customer.name]'
    await waitFor(async () => (await content.innerText()) === code, 'the picked key as code')

    // A test run: the script computed its output from both.
    const firstRun = await page.getByTestId('node-run-data').getAttribute('data-run-id')
    await page.getByTestId('workflow-run').click()
    await waitFor(
      async () =>
        (await page.getByTestId('node-run-data').getAttribute('data-run-id')) !== firstRun,
      'the second run'
    )
    await nodeWithStatus(page, 'use', 'success').waitFor()
    await panel.getByTestId('node-output-pane').getByTestId('data-view-json').click()
    const output = panel.getByTestId('node-output-data')
    await waitFor(
      async () => (await output.innerText()).replace(/\s/g, '') === '[84,"Ada"]',
      'the computed output'
    )
  })

  test('at 390 px the panel is a sheet over the canvas', async ({ visit, assert }) => {
    const { page, user } = await signIn(visit, 'node-panel-phone')
    await page.setViewportSize({ width: 390, height: 844 })
    const workflow = await threeNodes(user, { type: 'Code', options: { content: 'return input' } })
    await page.goto(`/workflows/${workflow.id}`)
    await canvasNode(page, 'make').waitFor()
    await canvasNode(page, 'make').click()
    const panel = page.getByTestId('node-settings')
    await panel.waitFor()
    const box = (await panel.boundingBox())!
    assert.isAtMost(Math.abs(box.x), 1)
    assert.isAtLeast(box.width, 389)
    await panel.getByTestId('node-run-empty').waitFor()
  })
})
