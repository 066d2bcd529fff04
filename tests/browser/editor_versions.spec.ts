import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import Bot from '#models/bot'
import Workflow from '#models/workflow'
import WorkflowRun from '#models/workflow_run'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { PublishWorkflow } from '#actions/workflows/publish_workflow'
import { closeQueue, startWorkers } from '#queue/queue'
import { signedIn } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import type { WorkflowJson } from '#shared/workflow/types'
import type { BotV6 } from '#shared/bot/types'

/**
 * What the editors keep (docs/workflows.md): edits saved within two seconds and on leaving
 * the page, the history with its comparison on the canvas, and test runs of the draft shown
 * node by node before anything is published.
 */

/**
 * The compare view opens fitted to the graph: every node of its canvas lies inside the
 * canvas (docs/editor.md "Layout").
 */
async function assertFitted(canvas: Locator) {
  await waitFor(async () => {
    const inside = await canvas.evaluate((element) => {
      const frame = element.getBoundingClientRect()
      const nodes = [...element.querySelectorAll('.react-flow__node')]
      return (
        frame.width > 0 &&
        nodes.length > 0 &&
        nodes.every((node) => {
          const box = node.getBoundingClientRect()
          return (
            box.left >= frame.left - 1 &&
            box.top >= frame.top - 1 &&
            box.right <= frame.right + 1 &&
            box.bottom <= frame.bottom + 1
          )
        })
      )
    })
    return inside
  }, 'the compare canvas fitted to its nodes')
}

/** The editors' panels side by side. */
const WIDE = { width: 1440, height: 900 }

function content(code: string, withMail = true): WorkflowJson {
  return {
    name: 'Orders',
    blocks: [
      {
        id: 'hook',
        type: 'webhook-trigger',
        graphCoordinates: { x: 0, y: 0 },
        options: { method: 'POST' },
        outgoingEdgeId: 'e1',
      },
      {
        id: 'pause',
        type: 'workflow-wait',
        graphCoordinates: { x: 320, y: 0 },
        options: { resume: 'interval', amount: 2, unit: 'seconds' },
        outgoingEdgeId: 'e2',
      },
      {
        id: 'calc',
        type: 'workflow-script',
        graphCoordinates: { x: 640, y: 0 },
        options: { code },
      },
      ...(withMail
        ? [
            {
              id: 'mail',
              type: 'workflow-script',
              title: 'Notify',
              graphCoordinates: { x: 960, y: 0 },
              options: { code: 'return input' },
            },
          ]
        : []),
    ],
    edges: [
      { id: 'e1', from: { blockId: 'hook' }, to: { blockId: 'pause' } },
      { id: 'e2', from: { blockId: 'pause' }, to: { blockId: 'calc' } },
      ...(withMail ? [{ id: 'e3', from: { blockId: 'calc' }, to: { blockId: 'mail' } }] : []),
    ],
    variables: [],
    settings: {},
  }
}

const node = (page: Page, id: string, status: string) =>
  page.locator(`[data-testid="workflow-node"][data-node-id="${id}"][data-run-status="${status}"]`)

test.group('Editors: autosave, history, test runs', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('workflow editor: an edit is saved within two seconds, and on reload right away', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'autosave-wf', WIDE)
    const workflow = await new CreateWorkflow().handle(user, workspace, {
      content: content('return 1'),
    })
    await page.goto(`/workflows/${workflow.id}`)
    const name = page.getByTestId('workflow-name')
    await name.waitFor()

    await name.fill('Orders, renamed')
    await name.press('Enter')
    // The old 15 s debounce would not be done before this gives up.
    await page
      .locator('[data-testid="save-status"][data-status="saved"]')
      .waitFor({ timeout: 4000, state: 'attached' })
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).name === 'Orders, renamed',
      'the autosave'
    )
    await page.reload()
    await page.locator('[data-testid="workflow-name"]').waitFor()
    assert.equal(await page.getByTestId('workflow-name').inputValue(), 'Orders, renamed')

    // Reloading at once: the draft leaves with the page (keepalive request).
    await page.getByTestId('workflow-name').fill('Orders, at once')
    await page.getByTestId('workflow-name').press('Enter')
    await page.reload()
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).name === 'Orders, at once',
      'the save on leaving'
    )
    await page.reload()
    await page.locator('[data-testid="workflow-name"]').waitFor()
    assert.equal(await page.getByTestId('workflow-name').inputValue(), 'Orders, at once')
  })

  test('bot editor: an edit is saved within two seconds, and on reload right away', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'autosave-bot', WIDE)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Greeter' })
    await page.goto(`/bots/${bot.id}/edit`)
    const name = page.getByTestId('bot-name')
    await name.waitFor()
    await name.fill('Greeter, renamed')
    await name.press('Enter')
    await page
      .locator('[data-testid="save-status"][data-status="saved"]')
      .waitFor({ timeout: 4000, state: 'attached' })
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).name === 'Greeter, renamed',
      'the autosave'
    )

    await page.getByTestId('bot-name').fill('Greeter, at once')
    await page.getByTestId('bot-name').press('Enter')
    await page.reload()
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).name === 'Greeter, at once',
      'the save on leaving'
    )
    await page.reload()
    await page.getByTestId('bot-name').waitFor()
    assert.equal(await page.getByTestId('bot-name').inputValue(), 'Greeter, at once')
  })

  test('workflow history: every publish listed with its author; two versions compared on the canvas; restore brings a deleted node back', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'history-wf', WIDE)
    await user.merge({ name: 'Grace Builder' }).save()
    const workflow = await new CreateWorkflow().handle(user, workspace, {
      content: content('return 1'),
    })
    await new PublishWorkflow().handle(user, workspace, workflow)
    const second = content('return 2', false)
    await new UpdateWorkflow().handle(user, workspace, workflow, {
      blocks: second.blocks,
      edges: second.edges,
    })
    await new PublishWorkflow().handle(user, workspace, workflow)

    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="calc"]').waitFor()
    assert.equal(await page.locator('[data-node-id="mail"]').count(), 0)
    await page.getByTestId('history-button').click()
    const rows = page.getByTestId('history-version')
    await rows.nth(2).waitFor()
    assert.deepEqual(await page.getByTestId('history-version-name').allTextContents(), [
      'Version 3',
      'Version 2',
      'Initial Version',
    ])
    assert.deepEqual(
      await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind'))),
      ['publish', 'draft', 'publish']
    )
    assert.include(await rows.first().getByTestId('history-version-author').innerText(), 'Grace')

    // The first and the last publish, compared.
    await rows.nth(0).getByTestId('history-compare-pick').check()
    await rows.nth(2).getByTestId('history-compare-pick').check()
    await page.getByTestId('history-compare').click()
    const compare = page.getByTestId('version-compare')
    await compare.waitFor()
    const canvas = compare.getByTestId('version-compare-canvas')
    await canvas.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()
    await assertFitted(canvas)
    assert.equal(await canvas.locator('[data-node-id="mail"]').getAttribute('data-diff'), 'removed')
    assert.equal(
      await canvas
        .locator('[data-testid="workflow-node"][data-node-id="calc"]')
        .getAttribute('data-diff'),
      'changed'
    )
    assert.isNull(
      await canvas
        .locator('[data-testid="workflow-node"][data-node-id="hook"]')
        .getAttribute('data-diff')
    )
    // The connection to the removed node is marked too.
    await canvas.locator('.react-flow__edge.diff-removed').first().waitFor({ state: 'attached' })
    const changed = compare.locator('[data-testid="compare-change"][data-item-id="calc"]')
    assert.equal(await changed.getAttribute('data-kind'), 'changed')
    assert.equal(await changed.getByTestId('compare-change-fields').innerText(), 'options.code')
    // The old and the new code side by side, not only the field's name.
    const code = changed.locator(
      '[data-testid="compare-change-values"] [data-field="options.code"]'
    )
    assert.equal(await code.locator('del').count(), 1)
    assert.notEqual(await code.locator('del').innerText(), await code.locator('ins').innerText())
    assert.equal(
      await compare
        .locator('[data-testid="compare-change"][data-item-id="mail"]')
        .getAttribute('data-kind'),
      'removed'
    )
    await page.screenshot({ path: 'docs/screenshots/workflow-history-compare-1440.png' })
    await page.keyboard.press('Escape')
    await compare.waitFor({ state: 'detached' })

    // Restoring the first publish brings the deleted node back, as a new version.
    await page.getByTestId('history-button').click()
    await rows.nth(2).getByTestId('history-restore').click()
    await page.getByTestId('confirm-action').click()
    await page.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).blocks.length === 4,
      'the restore'
    )
    const restored = await Workflow.findOrFail(workflow.id)
    // The draft changed; the published version did not.
    assert.equal(restored.status, 'DRAFT')
    assert.lengthOf(restored.executableWorkflow!.blocks, 3)
    await page.locator('[data-testid="workflow-status"][data-unpublished-changes="true"]').waitFor()
  })

  test('a test run of the unpublished draft from the editor, with a sample payload, shows node statuses live', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'testrun-wf', WIDE)
    const workflow = await new CreateWorkflow().handle(user, workspace, {
      content: content('return { seen: input.body.n }'),
    })
    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()
    await page.locator('[data-testid="workflow-run"][data-stream="live"]').waitFor()
    assert.equal(await page.getByTestId('workflow-status').getAttribute('data-status'), 'DRAFT')

    await page.getByTestId('workflow-run-sample').click()
    const payload = page.getByTestId('test-run-payload')
    await payload.fill('{ "n": ')
    await page.getByTestId('test-run-start').click()
    await page.getByTestId('test-run-payload-error').waitFor()
    await payload.fill('{ "n": 3 }')
    await page.getByTestId('test-run-start').click()

    // Node by node: the wait parks while the nodes after it have not run...
    await node(page, 'hook', 'success').waitFor({ timeout: 10_000 })
    // One look at the canvas (not two, which a loaded machine can let 2 s apart): while the
    // wait shows waiting, the node after it has no status yet.
    const calcWhileWaiting = await page.waitForFunction(
      () => {
        const status = (id: string) =>
          document
            .querySelector(`[data-testid="workflow-node"][data-node-id="${id}"]`)
            ?.getAttribute('data-run-status') ?? null
        return status('pause') === 'waiting' ? { calc: status('calc') } : false
      },
      undefined,
      { timeout: 10_000, polling: 'raf' }
    )
    assert.deepEqual(await calcWhileWaiting.jsonValue(), { calc: null })
    // ...then the run goes on to the end.
    await node(page, 'calc', 'success').waitFor({ timeout: 10_000 })
    await node(page, 'mail', 'success').waitFor({ timeout: 10_000 })

    const runs = await WorkflowRun.query().where('workflow_id', workflow.id)
    assert.lengthOf(runs, 1)
    assert.isTrue(runs[0].isTest)
    assert.deepEqual(runs[0].output, { seen: 3 })
    const stored = await Workflow.findOrFail(workflow.id)
    assert.equal(stored.status, 'DRAFT')
    assert.isNull(stored.executableWorkflow)
  })

  test('bot history: publishes listed, two versions compared on the canvas, a deleted group restored', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signedIn(visit, 'history-bot', WIDE)
    const text = (id: string, words: string) => ({
      id,
      type: 'text',
      content: { richText: [{ type: 'p', children: [{ text: words }] }] },
    })
    const bot = await new CreateBot().handle(user, workspace, {
      content: {
        version: '6',
        name: 'Greeter',
        events: [{ id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
        groups: [
          {
            id: 'g1',
            title: 'Hello',
            graphCoordinates: { x: 300, y: 0 },
            blocks: [text('b1', 'Hi')],
          },
          {
            id: 'g2',
            title: 'Bye',
            graphCoordinates: { x: 700, y: 0 },
            blocks: [text('b2', 'Bye')],
          },
        ],
        edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
        variables: [],
        theme: {},
        settings: {},
      } as unknown as BotV6,
    })
    await new PublishBot().handle(user, workspace, bot)
    const actor = { user, workspace }
    await new UpdateBot().handle(
      bot,
      {
        groups: [
          { ...bot.groups[0], title: 'Welcome', blocks: [text('b1', 'Hello there')] },
        ] as any,
      },
      actor
    )
    await new PublishBot().handle(user, workspace, bot)

    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="group-node"][data-group-id="g1"]').waitFor()
    assert.equal(await page.locator('[data-testid="group-node"][data-group-id="g2"]').count(), 0)
    await page.getByTestId('history-button').click()
    const rows = page.getByTestId('history-version')
    await rows.nth(2).waitFor()
    assert.deepEqual(
      await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind'))),
      ['publish', 'draft', 'publish']
    )
    await rows.nth(0).getByTestId('history-compare-pick').check()
    await rows.nth(2).getByTestId('history-compare-pick').check()
    await page.getByTestId('history-compare').click()
    const compare = page.getByTestId('version-compare')
    const canvas = compare.getByTestId('version-compare-canvas')
    const groupNode = (id: string) =>
      canvas.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    await groupNode('g2').waitFor()
    await assertFitted(canvas)
    assert.equal(await groupNode('g2').getAttribute('data-diff'), 'removed')
    assert.equal(await groupNode('g1').getAttribute('data-diff'), 'changed')
    assert.equal(
      await canvas
        .locator('[data-testid="block-item"][data-block-id="b1"]')
        .getAttribute('data-diff'),
      'changed'
    )
    const fields = compare
      .locator('[data-testid="compare-change"][data-item-id="b1"]')
      .getByTestId('compare-change-fields')
    assert.equal(await fields.innerText(), 'content.richText')
    await page.screenshot({ path: 'docs/screenshots/bot-history-compare-1440.png' })
    await page.keyboard.press('Escape')
    await compare.waitFor({ state: 'detached' })

    await page.getByTestId('history-button').click()
    await rows.nth(2).getByTestId('history-restore').click()
    await page.getByTestId('confirm-action').click()
    await page.locator('[data-testid="group-node"][data-group-id="g2"]').waitFor()
    await waitFor(async () => (await Bot.findOrFail(bot.id)).groups.length === 2, 'the restore')
  })
})
