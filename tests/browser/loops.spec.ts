import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { closeQueue, startWorkers } from '#queue/queue'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { closeSettings, drag, nodeOfType, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * A loop built in each editor as a builder does it: the Loop dragged from the palette, its
 * settings chosen, its exits connected with the pointer; the repeated part is marked, and
 * the loop runs (the bot in the preview, the workflow in a test run).
 */

/** "A number of times", twice, in the open settings form. */
async function repeatTwice(page: Page, form: Locator) {
  await form.getByTestId('field-mode').click()
  await page.getByRole('option', { name: 'A number of times' }).click()
  await form.getByTestId('field-times').fill('2')
}

function text(id: string, value: string) {
  return { id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } }
}

test.group('Loops in the editors', (suite) => {
  // Tests start no queue workers of their own accord: the test run needs them.
  suite.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a bot loop: dropped, set, connected, marked and run in the preview', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('loop-bot')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Loop',
    })
    const bot = await Bot.findOrFail(created.id)
    bot.groups = [
      { id: 'g1', title: 'Start', graphCoordinates: { x: 300, y: 0 }, blocks: [text('hi', 'Hi')] },
      {
        id: 'g2',
        title: 'Each',
        graphCoordinates: { x: 760, y: -160 },
        blocks: [text('again', 'Again')],
      },
      {
        id: 'g3',
        title: 'After',
        graphCoordinates: { x: 760, y: 200 },
        blocks: [text('bye', 'Bye')],
      },
    ] as any
    const eventId = bot.events[0].id
    bot.events = bot.events.map((event) => ({ ...event, outgoingEdgeId: 'e_start' }))
    bot.edges = [{ id: 'e_start', from: { eventId }, to: { groupId: 'g1' } }] as any
    await bot.save()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const group = (id: string) => page.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    await group('g3').waitFor()

    // The Loop joins the first group, under its bubble; its settings open.
    await page.getByTestId('sidebar-block-loop').dragTo(group('g1'), {
      targetPosition: { x: 150, y: 70 },
    })
    const loop = group('g1').getByTestId('block-item').filter({ hasText: 'Each iteration' })
    await loop.waitFor()
    const form = page.getByTestId('block-settings')
    await form.waitFor()
    await repeatTwice(page, form)
    await form.getByTestId('block-settings-close').click()

    // Its exits are named; "Each iteration" leads to the repeated group, "Done" after it.
    assert.deepEqual(await loop.getByTestId('block-item-entry').allInnerTexts(), [
      'Each iteration',
      'Done',
      'Break',
    ])
    assert.equal(await loop.getByTestId('block-handle').count(), 0, 'the exits cover every path')
    const edges = page.locator('.react-flow__edge')
    await drag(page, loop.getByTestId('item-handle').nth(0), group('g2'))
    await waitFor(async () => (await edges.count()) === 2, 'the edge of Each iteration')
    await drag(page, loop.getByTestId('item-handle').nth(1), group('g3'))
    await waitFor(async () => (await edges.count()) === 3, 'the edge of Done')

    // The repeated group wears the Loop badge; the group after the loop does not.
    await group('g2').getByTestId('group-loop-badge').waitFor()
    assert.equal(await group('g3').getByTestId('group-loop-badge').count(), 0)
    assert.equal(await group('g1').getByTestId('group-loop-badge').count(), 0)

    await hideTab(page)
    await waitFor(async () => (await Bot.findOrFail(bot.id)).edges.length === 3, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    const block = saved.groups[0].blocks.find((candidate) => candidate.type === 'loop')!
    assert.deepInclude(block.options as object, { mode: 'count', times: 2 })
    const targets = (block.items ?? []).map(
      (item) => saved.edges.find((edge) => edge.id === item.outgoingEdgeId)?.to.groupId ?? null
    )
    assert.deepEqual(targets, ['g2', 'g3', null])

    // The preview chats through it: the repeated bubble twice, then what follows Done.
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.getByText('Bye').waitFor()
    assert.equal(await panel.getByText('Again', { exact: true }).count(), 2)
    assert.equal(await panel.getByText('Hi', { exact: true }).count(), 1)
  }).timeout(120_000)

  test('a workflow loop: dropped, set, connected back, labelled and run', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('loop-workflow')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Loop' })
    workflow.merge({
      blocks: [
        { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
        {
          id: 'round',
          type: 'workflow-script',
          title: 'Round',
          graphCoordinates: { x: 760, y: -200 },
          options: { code: "return 'round ' + input.index" },
        },
        {
          id: 'end',
          type: 'workflow-script',
          title: 'End',
          graphCoordinates: { x: 760, y: 260 },
          options: { code: 'return input' },
        },
      ],
      edges: [],
    })
    await workflow.save()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    const node = (id: string) => page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`)
    await node('end').waitFor()

    await page
      .getByTestId('palette-node-loop')
      .dragTo(page.getByTestId('workflow-canvas'), { targetPosition: { x: 560, y: 420 } })
    const loop = nodeOfType(page, 'loop')
    await loop.waitFor()
    const settings = page.getByTestId('node-settings')
    await settings.getByTestId('node-form').waitFor()
    await repeatTwice(page, settings)
    await closeSettings(page)

    // Three named exits and no "otherwise".
    assert.deepEqual(await loop.getByTestId('node-branch').allInnerTexts(), [
      'Each iteration',
      'Done',
      'Break',
    ])
    assert.isFalse(await loop.getByTestId('node-handle-out').isVisible())

    const edges = page.locator('.react-flow__edge')
    await drag(page, node('trigger').getByTestId('node-handle-out'), loop)
    await waitFor(async () => (await edges.count()) === 1, 'trigger → loop')
    await drag(page, loop.getByTestId('node-handle-branch').nth(0), node('round'))
    await waitFor(async () => (await edges.count()) === 2, 'each → round')
    assert.equal(await page.getByTestId('loop-edge-label').count(), 0)
    // The way back from the repeated part to the loop is labelled "loop".
    await drag(page, node('round').getByTestId('node-handle-out'), loop)
    await waitFor(async () => (await edges.count()) === 3, 'round → loop')
    await page.getByTestId('loop-edge-label').waitFor()
    await drag(page, loop.getByTestId('node-handle-branch').nth(1), node('end'))
    await waitFor(async () => (await edges.count()) === 4, 'done → end')
    assert.equal(await page.getByTestId('loop-edge-label').count(), 1)

    // A test run of the draft: the repeated node ran once per iteration.
    await page.getByTestId('workflow-run').click()
    await node('end').locator('[data-testid="node-status"][data-status="success"]').waitFor({
      timeout: 30_000,
    })
    const run = await WorkflowRun.query().where('workflowId', workflow.id).firstOrFail()
    const records = await WorkflowRunNode.query().where('runId', run.id).orderBy('id')
    const outputsOf = (nodeId: string) =>
      records
        .filter((record) => record.nodeId === nodeId && record.status === 'success')
        .map((record) => record.output)
    assert.deepEqual(outputsOf('round'), ['round 0', 'round 1'])
    assert.deepEqual(outputsOf('end'), [{ iterations: 2, broken: false }])
    assert.lengthOf(outputsOf((await loop.getAttribute('data-node-id'))!), 3)
  }).timeout(120_000)
})
