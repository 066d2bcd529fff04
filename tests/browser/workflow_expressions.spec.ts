import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import Workflow from '#models/workflow'
import WorkflowRun from '#models/workflow_run'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateBot } from '#actions/bots/create_bot'
import { closeQueue, startWorkers } from '#queue/queue'
import { signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { publishedWorkflow } from '#tests/functional/workflow_fixtures'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * Expressions in the editors (docs/workflows.md, "Expressions"): `{{` completes variables,
 * run data and earlier nodes with their fields from the last test run, with the keyboard;
 * a variable that does not exist yet is made from the field that names it.
 */

/** Trigger, a script titled "HTTP request", a Set variable and a Condition. */
async function seedWorkflow() {
  return publishedWorkflow(
    [
      { id: 'trigger', graphCoordinates: { x: 0, y: 0 }, type: 'manual-trigger' },
      {
        id: 'fetch',
        graphCoordinates: { x: 320, y: 0 },
        type: 'workflow-script',
        title: 'HTTP request',
        options: { code: "return { status: 404, body: { city: 'Lyon' } }" },
      },
      {
        id: 'save',
        graphCoordinates: { x: 640, y: 0 },
        type: 'workflow-set-variable',
        title: 'Save',
        options: { variableId: 'v-out', value: 'none' },
      },
      {
        id: 'cond',
        graphCoordinates: { x: 960, y: 0 },
        type: 'Condition',
        title: 'Check',
        conditions: [
          {
            id: 'c1',
            content: {
              logicalOperator: 'AND',
              comparisons: [{ id: 'k1', comparisonOperator: 'Equal to', value: '404' }],
            },
          },
        ],
      },
    ],
    { variables: [{ id: 'v-out', name: 'Out' }] }
  )
}

async function openNode(page: Page, id: string) {
  await page.locator(`[data-testid="workflow-node"][data-node-id="${id}"]`).click()
  await page.locator(`[data-testid="node-settings"][data-node-id="${id}"]`).waitFor()
}

async function draftOf(id: string) {
  const workflow = await Workflow.findOrFail(id)
  return { blocks: workflow.blocks as any[], variables: workflow.variables as any[] }
}

test.group('Workflow editor: expressions', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('after a test run, {{ completes a node then one of its fields with the keyboard', async ({
    visit,
    assert,
  }) => {
    const workflow = await seedWorkflow()
    const page = await visit('/signin')
    await signInWithLink(page, workflow.email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="save"]').waitFor()

    await page.getByTestId('workflow-run').click()
    await page
      .locator('[data-testid="workflow-node"][data-node-id="cond"][data-run-status="success"]')
      .waitFor({ timeout: 20_000 })

    await openNode(page, 'save')
    const value = page.getByTestId('node-form').getByTestId('field-value')
    await value.click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('Got {{')
    const options = page.getByTestId('expression-suggestion')
    await options.first().waitFor()
    const labels = await options.allInnerTexts()
    // Variables, run data, then the nodes before this one (nearest first).
    assert.equal(labels[0], 'Out')
    assert.include(labels.join('|'), '$trigger')
    assert.include(labels.join('|'), 'HTTP request')

    await page.keyboard.type('HTTP')
    await page.keyboard.press('Enter')
    await waitFor(
      async () => (await value.inputValue()) === 'Got {{$node["HTTP request"].',
      'the node chosen'
    )
    // The list goes on with the node's fields from the run, their sample values beside.
    await waitFor(
      async () => (await options.allInnerTexts()).some((text) => text.startsWith('status')),
      'the node fields'
    )
    assert.include((await options.allInnerTexts()).join('|'), '404')
    await page.keyboard.type('ci')
    await page.keyboard.press('Enter')
    await waitFor(
      async () => (await value.inputValue()) === 'Got {{$node["HTTP request"].body.city}}',
      'the field chosen'
    )
    await page.getByTestId('expression-suggestions').waitFor({ state: 'detached' })
    await waitFor(
      async () =>
        (await draftOf(workflow.id)).blocks.find((block) => block.id === 'save')?.options?.value ===
        'Got {{$node["HTTP request"].body.city}}',
      'the draft saved'
    )

    // Run again: the mapped value reaches the variable.
    await page.getByTestId('node-settings-close').click()
    await page.getByTestId('workflow-run').click()
    await page
      .locator('[data-testid="workflow-node"][data-node-id="fetch"][data-run-status="success"]')
      .waitFor({ timeout: 20_000 })
    await page
      .locator('[data-testid="workflow-node"][data-node-id="cond"][data-run-status="success"]')
      .waitFor({ timeout: 20_000 })
    const runs = await WorkflowRun.query()
      .where('workflowId', workflow.id)
      .orderBy('createdAt', 'desc')
      .limit(1)
    const saved = await WorkflowRunNode.query()
      .where('runId', runs[0].id)
      .where('nodeId', 'save')
      .firstOrFail()
    assert.equal(saved.logs?.[0].description, 'Out = Got Lyon')
  })

  test('a condition compares an expression, and a missing variable is created from the field', async ({
    visit,
    assert,
  }) => {
    const workflow = await seedWorkflow()
    const page = await visit('/signin')
    await signInWithLink(page, workflow.email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await openNode(page, 'cond')
    const subject = page
      .getByTestId('branches-editor')
      .getByTestId('field-content.comparisons.0.variableId')
    await subject.click()
    await page.keyboard.type('{{Score')
    const create = page.locator('[data-testid="expression-suggestion"][data-kind="create"]')
    await create.waitFor()
    assert.include(await create.innerText(), 'Score')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await subject.inputValue()) === '{{Score}}', 'the reference')

    await waitFor(async () => {
      const draft = await draftOf(workflow.id)
      const score = draft.variables.find((variable) => variable.name === 'Score')
      const comparison = draft.blocks.find((block) => block.id === 'cond')?.conditions?.[0]?.content
        ?.comparisons?.[0]
      // A variable stays stored by id, as conditions were before expressions.
      return !!score && comparison?.variableId === score.id
    }, 'the variable created and picked')

    // Any expression is kept as typed.
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('{{$node["HTTP request"].status}}')
    await waitFor(
      async () =>
        (await draftOf(workflow.id)).blocks.find((block) => block.id === 'cond')?.conditions?.[0]
          ?.content?.comparisons?.[0]?.variableId === '{{$node["HTTP request"].status}}',
      'the expression saved'
    )
  })
})

test.group('Bot editor: variables from a field', () => {
  test('the Condition block compares any expression; a variable picked before stays that variable', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('bot-condition-subject')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Subjects',
    })
    const bot = await Bot.findOrFail(created.id)
    const text = (id: string, words: string) => ({
      id,
      type: 'text',
      content: { richText: [{ type: 'p', children: [{ text: words }] }] },
    })
    // As a bot saved before expressions: the comparison names its variable by id.
    bot.groups = [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 320, y: 0 },
        blocks: [
          {
            id: 'set',
            type: 'Set variable',
            options: { variableId: 'vcity', type: 'Custom', expressionToEvaluate: 'Lyon' },
          },
          {
            id: 'cond',
            type: 'Condition',
            items: [
              {
                id: 'ci1',
                content: {
                  comparisons: [
                    { variableId: 'vcity', comparisonOperator: 'Equal to', value: 'Paris' },
                  ],
                  logicalOperator: 'AND',
                },
                outgoingEdgeId: 'e-yes',
              },
            ],
            outgoingEdgeId: 'e-no',
          },
        ],
      },
      {
        id: 'g-yes',
        title: 'Yes',
        graphCoordinates: { x: 700, y: 0 },
        blocks: [text('t1', 'It matches')],
      },
      {
        id: 'g-no',
        title: 'No',
        graphCoordinates: { x: 700, y: 300 },
        blocks: [text('t2', 'No match')],
      },
    ] as any
    bot.edges = [
      { id: 'e-start', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e-yes', from: { blockId: 'cond', itemId: 'ci1' }, to: { groupId: 'g-yes' } },
      { id: 'e-no', from: { blockId: 'cond' }, to: { groupId: 'g-no' } },
    ] as any
    bot.events = [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e-start' },
    ] as any
    bot.variables = [{ id: 'vcity', name: 'City' }] as any
    await bot.save()
    const savedComparison = async () => {
      const saved = await Bot.findOrFail(bot.id)
      const block = (saved.groups as any[])[0].blocks.find((b: any) => b.id === 'cond')
      return block?.items?.[0]?.content?.comparisons?.[0]
    }

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="cond"]').click()
    const subject = page
      .getByTestId('items-editor')
      .getByTestId('field-content.comparisons.0.variableId')
    // The variable stored by id reads as its reference.
    await waitFor(async () => (await subject.inputValue()) === '{{City}}', 'the stored variable')

    // `{{` completes the bot's variables; chosen alone, it is stored by id as before.
    await subject.click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('{{Ci')
    const city = page.locator('[data-testid="expression-suggestion"][data-kind="variable"]')
    await city.first().waitFor()
    assert.include(await city.first().innerText(), 'City')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await subject.inputValue()) === '{{City}}', 'the completion')
    await waitFor(async () => (await savedComparison())?.variableId === 'vcity', 'kept by id')

    // Any expression: text around the reference.
    await page.keyboard.type(', France')
    const value = page.getByTestId('items-editor').getByTestId('field-content.comparisons.0.value')
    await value.fill('Lyon, France')
    await waitFor(async () => {
      const comparison = await savedComparison()
      return comparison?.variableId === '{{City}}, France' && comparison?.value === 'Lyon, France'
    }, 'the expression saved')
    const entry = page
      .locator('[data-testid="block-item"][data-block-id="cond"]')
      .getByTestId('block-item-entry')
    assert.include(await entry.innerText(), '{{City}}, France')

    // The preview takes the branch the expression holds for.
    await page.getByTestId('block-settings-close').click()
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.getByText('It matches').waitFor()
    assert.equal(await panel.getByText('No match').count(), 0)
  })

  test('typing {{ and a new name in a text bubble offers to create the variable', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('bubble-create')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Create',
    })
    const bot = await Bot.findOrFail(created.id)
    bot.groups = [
      {
        id: 'g1',
        title: 'Welcome',
        graphCoordinates: { x: 320, y: 0 },
        blocks: [{ id: 'b1', type: 'text', content: {} }],
      },
    ] as any
    bot.variables = [{ id: 'vcity', name: 'City' }] as any
    await bot.save()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="b1"]').click()
    const input = page.getByTestId('text-bubble-input')
    await input.click()
    await page.keyboard.type('Your score: {{Score')
    const options = page.getByTestId('bubble-variable-suggestion')
    await options.first().waitFor()
    assert.deepEqual(await options.allInnerTexts(), ['Create variable “Score”'])
    await page.keyboard.press('Enter')
    await waitFor(async () => (await input.inputValue()) === 'Your score: {{Score}}', 'the text')
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      const names = (saved.variables as any[]).map((variable) => variable.name)
      return names.includes('Score') && names.includes('City')
    }, 'the variable saved with the bot')
  })
})
