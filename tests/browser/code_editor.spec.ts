import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import Workflow from '#models/workflow'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { addFromPalette, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type { Block } from '#shared/bot/types'

/**
 * The code editor of the plugin forms (issue 28, item 3): CodeMirror in both editors, typed
 * into as a builder does. Errors show before any run; completion inserts variables.
 */

/** The editor of a field, once CodeMirror has replaced the textarea. */
async function codeEditor(form: Locator, path: string) {
  await form.locator(`[data-testid="field-${path}-editor"][data-state="ready"]`).waitFor()
  return form.locator(`[data-testid="field-${path}-editor"] .cm-content`)
}

async function signIn(visit: (url: string) => Promise<Page>, name: string) {
  const email = uniqueEmail(name)
  const page = await visit('/signin')
  page.setDefaultTimeout(60_000)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  await page.setViewportSize({ width: 1280, height: 800 })
  return { page, user, workspace: await firstWorkspaceOf(user) }
}

async function botWith(user: User, name: string, blocks: Block[]) {
  const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), { name })
  const stored = await Bot.findOrFail(bot.id)
  stored.groups = [{ id: 'g1', title: 'Group #1', graphCoordinates: { x: 420, y: 80 }, blocks }]
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  stored.variables = [
    { id: 'vemail', name: 'Email' },
    { id: 'vtotal', name: 'Total' },
  ]
  await stored.save()
  return stored
}

const optionsOf = (block: Block | undefined) => (block?.options ?? {}) as Record<string, unknown>

/**
 * Accepts the completion offered for what was just typed, as a person does once the list
 * shows the word: the list is read again after a pause, since each keystroke closes and
 * reopens it while CodeMirror computes the new list (on a loaded machine, a while).
 */
async function acceptCompletion(page: Page, expected: string) {
  const option = page.locator('.cm-tooltip-autocomplete li[aria-selected="true"]')
  for (let tries = 0; ; tries++) {
    await option.waitFor()
    await page.waitForTimeout(250)
    if ((await option.count()) === 1 && (await option.innerText()) === expected) break
    if (tries > 40) throw new Error(`the completion never settled on ${expected}`)
  }
  await page.keyboard.press('Enter')
}

test.group('Code editor', () => {
  test('bot editor: a Code block flags a syntax error before running; completion inserts a variable', async ({
    visit,
    assert,
  }) => {
    const { page, user } = await signIn(visit, 'code-editor-bot')
    const bot = await botWith(user, 'Code editor', [
      { id: 'code1', type: 'Code', options: { name: 'Script' } },
    ])
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-block-id="code1"]').click()
    const form = page.getByTestId('block-form')
    await form.waitFor()

    // Labelled by its field label, the language named beside it.
    const label = form.locator('[data-field="content"] label')
    assert.include(await label.innerText(), 'javascript')
    const content = await codeEditor(form, 'content')
    const labelId = await content.getAttribute('aria-labelledby')
    assert.equal(await page.locator(`[id="${labelId}"]`).innerText(), await label.innerText())
    assert.equal(await content.getAttribute('role'), 'textbox')

    await content.click()
    await page.keyboard.type('const sum = To')
    // The Code block gets the variables by name: the completion offers them as names.
    await acceptCompletion(page, 'Total')
    await page.keyboard.type(' *')
    assert.equal(await content.innerText(), 'const sum = Total *')

    // Unfinished: flagged on its line, before any run.
    const problems = form.getByTestId('field-content-problems')
    await problems.waitFor()
    assert.equal(await problems.innerText(), 'Syntax error on line 1')
    assert.equal(await content.getAttribute('aria-invalid'), 'true')
    await form.locator('.cm-lintRange-error').first().waitFor()

    await page.keyboard.type(' 2')
    await problems.waitFor({ state: 'detached' })
    assert.isNull(await content.getAttribute('aria-invalid'))
    // Highlighted: the keyword and the number are drawn in colours of their own.
    const keyword = await content
      .getByText('const', { exact: true })
      .evaluate((node) => getComputedStyle(node).color)
    const number = await content
      .getByText('2', { exact: true })
      .evaluate((node) => getComputedStyle(node).color)
    assert.notEqual(keyword, number)

    // Resizable: its bottom-right corner dragged down makes it taller.
    const frame = form.locator('[data-testid="field-content-editor"]')
    const before = (await frame.boundingBox())!
    await page.mouse.move(before.x + before.width - 3, before.y + before.height - 3)
    await page.mouse.down()
    await page.mouse.move(before.x + before.width - 3, before.y + before.height + 120, {
      steps: 8,
    })
    await page.mouse.up()
    await waitFor(
      async () => (await frame.boundingBox())!.height >= before.height + 80,
      'the taller editor'
    )
    await content.click()
    await page.keyboard.press('ControlOrMeta+End')

    // Escape then Tab leaves the editor; the settings panel stays open.
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    assert.isFalse(await content.evaluate((node) => node.contains(document.activeElement)))
    await page.getByTestId('block-settings').waitFor()

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      return optionsOf(saved.groups[0].blocks[0]).content === 'const sum = Total * 2'
    }, 'the saved code')
  }).timeout(180_000)

  test('bot editor: Set variable is text with {{variables}} until "Evaluate as code"', async ({
    visit,
    assert,
  }) => {
    const { page, user } = await signIn(visit, 'code-editor-set')
    const bot = await botWith(user, 'Set variable value', [
      { id: 'set1', type: 'Set variable', options: { type: 'Custom' } },
    ])
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-block-id="set1"]').click()
    const form = page.getByTestId('block-form')
    await form.waitFor()

    const label = form.locator('[data-field="expressionToEvaluate"] label')
    assert.notInclude(await label.innerText(), 'javascript')
    const value = await codeEditor(form, 'expressionToEvaluate')
    assert.equal(await value.getAttribute('data-lang'), 'text')

    // `{{` offers the variables, as in a text bubble.
    await value.click()
    await page.keyboard.type('Hello {{Em')
    await acceptCompletion(page, 'Email')
    await page.keyboard.type(', your total is ')
    assert.equal(await value.innerText(), 'Hello {{Email}}, your total is ')

    // The panel's Variables picker puts the variable where the cursor was.
    const search = page.getByTestId('variable-search')
    await search.click()
    await search.fill('Tot')
    await page
      .getByTestId('variable-suggestion')
      .filter({ hasText: 'Total' })
      .locator('button')
      .first()
      .click()
    await waitFor(
      async () => (await value.innerText()) === 'Hello {{Email}}, your total is {{Total}}',
      'the picked variable in the value'
    )

    // As code: the language shows, and a syntax error is flagged.
    await form.getByTestId('field-isCode').click()
    await form
      .locator('[data-field="expressionToEvaluate"] label')
      .getByText('javascript')
      .waitFor()
    const code = await codeEditor(form, 'expressionToEvaluate')
    await waitFor(async () => (await code.getAttribute('data-lang')) === 'javascript', 'JavaScript')
    const problems = form.getByTestId('field-expressionToEvaluate-problems')
    await problems.waitFor()
    assert.equal(await problems.innerText(), 'Syntax error on line 1')
    await code.click()
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('{{Total}} * 2')
    await problems.waitFor({ state: 'detached' })

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      const options = optionsOf(saved.groups[0].blocks[0])
      return options.isCode === true && options.expressionToEvaluate === '{{Total}} * 2'
    }, 'the saved value')
  }).timeout(180_000)

  test('workflow editor: a JSON body is highlighted and invalid JSON flagged', async ({
    visit,
    assert,
  }) => {
    const { page, user, workspace } = await signIn(visit, 'code-editor-wf')
    const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'JSON body' })
    await page.goto(`/workflows/${workflow.id}`)
    await page.getByTestId('workflow-canvas').waitFor()

    const node = await addFromPalette(page, 'Webhook')
    const nodeId = await node.getAttribute('data-node-id')
    const form = page.getByTestId('node-form')
    await form.getByTestId('field-isCustomBody').click()
    const body = await codeEditor(form, 'webhook.body')
    assert.equal(await body.getAttribute('data-lang'), 'json')

    await body.click()
    await page.keyboard.type('{"name": "Ada", "age": 36,}')
    const problems = form.getByTestId('field-webhook.body-problems')
    await problems.waitFor()
    assert.equal(await problems.innerText(), 'Not valid JSON (line 1)')
    assert.equal(await body.getAttribute('aria-invalid'), 'true')

    // Highlighted: a property name, a string and a number each get a colour.
    const colours = await Promise.all(
      ['"name"', '"Ada"', '36'].map((text) =>
        body.getByText(text, { exact: true }).evaluate((element) => getComputedStyle(element).color)
      )
    )
    assert.lengthOf(new Set(colours), 3)

    // The trailing comma goes: valid again.
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Backspace')
    await problems.waitFor({ state: 'detached' })
    assert.equal(await body.innerText(), '{"name": "Ada", "age": 36}')

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Workflow.findOrFail(workflow.id)
      const saving = saved.blocks.find((candidate) => candidate.id === nodeId)
      const webhook = saving?.options?.webhook as { body?: string } | undefined
      return webhook?.body === '{"name": "Ada", "age": 36}'
    }, 'the saved body')

    // Dark mode (the builder's appearance): the editor takes the dark colours.
    user.preferredAppAppearance = 'dark'
    await user.save()
    await page.reload()
    await page.locator(`[data-testid="workflow-node"][data-node-id="${nodeId}"]`).click()
    const dark = await codeEditor(page.getByTestId('node-form'), 'webhook.body')
    assert.isTrue(await page.evaluate(() => document.documentElement.classList.contains('dark')))
    const darkColours = await Promise.all(
      ['"name"', '"Ada"', '36'].map((text) =>
        dark.getByText(text, { exact: true }).evaluate((element) => getComputedStyle(element).color)
      )
    )
    assert.lengthOf(new Set(darkColours), 3)
    darkColours.forEach((colour, index) => assert.notEqual(colour, colours[index]))
  }).timeout(180_000)
})
