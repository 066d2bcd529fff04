import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import Result from '#models/result'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { importBot } from '#shared/bot/parse'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import { contactBot } from '#tests/fixtures/results/contact_bot'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A visitor's chat through the public chat API. */
async function chat(page: Page, publicId: string, answers: string[]) {
  const start = await page.request.post(`/api/v1/typebots/${publicId}/startChat`, { data: {} })
  if (!start.ok()) throw new Error(await start.text())
  const { sessionId, resultId } = await start.json()
  for (const message of answers) {
    const reply = await page.request.post(`/api/v1/sessions/${sessionId}/continueChat`, {
      data: { message },
    })
    if (!reply.ok()) throw new Error(await reply.text())
  }
  return resultId as string
}

test.group('Results tab in the browser', () => {
  test('lists results, hides a column, exports CSV, shows logs, deletes, shows analytics', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('results')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { content: importBot(contactBot) })
    await new PublishBot().handle(user, workspace, bot)
    const publicId = (await Bot.findOrFail(bot.id)).publicId!

    const ada = await chat(page, publicId, ['Ada', 'ada@example.com'])
    const bob = await chat(page, publicId, ['Bob', 'bob@example.com'])

    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('editor-tab-results').click()
    await page.waitForURL(/\/results$/)
    await page.getByTestId('results-table').waitFor()
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 2, 'two rows')
    // Newest first.
    assert.equal(await page.getByTestId('result-row').first().getAttribute('data-result-id'), bob)
    await page.getByTestId('results-count').waitFor()
    const headers = page.getByTestId('results-column-header')
    assert.deepEqual(await headers.allInnerTexts(), [
      'Submitted at',
      'Name',
      'Contact · Email',
      'Source',
    ])

    // Hide the e-mail column: saved on the bot, still hidden after a reload.
    await page.getByTestId('results-columns').click()
    await page.locator('[data-testid="results-column-toggle"][data-column-id="b_email"]').uncheck()
    await page.keyboard.press('Escape')
    await waitFor(async () => (await headers.count()) === 3, 'the column to hide')
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      const prefs = saved.resultsTablePreferences as any
      return prefs?.columnsVisibility?.b_email === false
    }, 'the saved preference')
    await page.reload()
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 2, 'the reload')
    assert.deepEqual(await headers.allInnerTexts(), ['Submitted at', 'Name', 'Source'])

    await page.screenshot({ path: app.makePath('docs/screenshots/results.png') })

    // Search narrows the rows on the server.
    await page.getByTestId('results-search').fill('ada')
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 1, 'the search')
    await page.getByTestId('results-search').fill('')
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 2, 'all rows')

    // Export all rows: the visible columns, in their order.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('results-export').click(),
    ])
    assert.match(download.suggestedFilename(), /^Contact-form-results-.*\.csv$/)
    const csv = await readFile((await download.path())!, 'utf8')
    const lines = csv.trim().split('\n')
    assert.equal(lines[0], 'Submitted at,Name,Source')
    assert.lengthOf(lines, 3)
    assert.match(lines[1], /,Bob,$/)
    assert.match(lines[2], /,Ada,$/)

    // The log view of Ada's result: her answers and the HTTP request's error.
    const adaRow = page.locator(`[data-testid="result-row"][data-result-id="${ada}"]`)
    await adaRow.getByTestId('result-open-logs').click()
    const sheet = page.getByTestId('result-log-sheet')
    await sheet.waitFor()
    await sheet.getByText('ada@example.com').waitFor()
    await sheet.locator('[data-testid="result-log-entry"][data-status="error"]').waitFor()
    await page.waitForTimeout(400) // the sheet's slide-in
    await page.screenshot({ path: app.makePath('docs/screenshots/results_log_view.png') })
    assert.include(await sheet.innerText(), 'HTTP request: the URL is empty')
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })

    // Delete Bob's result (after confirming).
    const bobRow = page.locator(`[data-testid="result-row"][data-result-id="${bob}"]`)
    await bobRow.getByTestId('result-select').check()
    await page.getByTestId('results-delete').click()
    await page.getByTestId('confirm-action').click()
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 1, 'the delete')
    await waitFor(async () => !(await Result.find(bob)), 'the deleted result')

    // A visitor who stops after the name, then the analytics.
    await chat(page, publicId, ['Cy'])
    await page.getByTestId('results-view-analytics').click()
    await page.getByTestId('analytics-view').waitFor()
    assert.equal(await page.getByTestId('analytics-views-value').innerText(), '2')
    assert.equal(await page.getByTestId('analytics-starts-value').innerText(), '2')
    assert.equal(await page.getByTestId('analytics-completion-value').innerText(), '50%')
    const emailBadge = page.locator('[data-testid="drop-off-badge"][data-block-id="b_email"]')
    await emailBadge.waitFor()
    assert.equal(await emailBadge.innerText(), '1 dropped (50%)')
    assert.equal(
      await page.locator('[data-testid="drop-off-badge"][data-block-id="b_name"]').innerText(),
      '0 dropped (0%)'
    )
    await page.screenshot({ path: app.makePath('docs/screenshots/results_analytics.png') })
  })

  test('a value a Set variable computed in a chat is a column of the table and the CSV', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('results-set')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const paragraph = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })
    // The shape of issue 28: a text input, buttons, a condition, then a Set variable on a
    // variable created in the editor's picker and a closing bubble.
    const bot = await new CreateBot().handle(user, workspace, {
      content: importBot({
        version: '6',
        name: 'Greeter',
        events: [
          { id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } },
        ],
        groups: [
          {
            id: 'g1',
            title: 'Ask',
            graphCoordinates: { x: 200, y: 0 },
            blocks: [
              { id: 'b1', type: 'text', content: paragraph('Your name?') },
              { id: 'b2', type: 'text input', options: { variableId: 'vname' } },
              {
                id: 'b3',
                type: 'choice input',
                options: { variableId: 'vmood' },
                items: [
                  { id: 'i1', content: 'Good', outgoingEdgeId: 'e1' },
                  { id: 'i2', content: 'Bad', outgoingEdgeId: 'e1' },
                ],
              },
            ],
          },
          {
            id: 'g2',
            title: 'Check',
            graphCoordinates: { x: 400, y: 0 },
            blocks: [
              {
                id: 'b4',
                type: 'Condition',
                items: [
                  {
                    id: 'c1',
                    content: {
                      comparisons: [
                        { variableId: 'vmood', comparisonOperator: 'Equal to', value: 'Good' },
                      ],
                      logicalOperator: 'AND',
                    },
                    outgoingEdgeId: 'e2',
                  },
                ],
                outgoingEdgeId: 'e2',
              },
            ],
          },
          {
            id: 'g3',
            title: 'Greet',
            graphCoordinates: { x: 600, y: 0 },
            blocks: [
              {
                id: 'b5',
                type: 'Set variable',
                options: {
                  variableId: 'vgreeting',
                  type: 'Custom',
                  expressionToEvaluate: 'Hello {{Name}}',
                },
              },
              { id: 'b6', type: 'text', content: paragraph('{{Greeting}}!') },
            ],
          },
        ],
        edges: [
          { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g1' } },
          { id: 'e1', from: { blockId: 'b3' }, to: { groupId: 'g2' } },
          { id: 'e2', from: { blockId: 'b4', itemId: 'c1' }, to: { groupId: 'g3' } },
        ],
        variables: [
          { id: 'vname', name: 'Name', isSessionVariable: true },
          { id: 'vmood', name: 'Mood', isSessionVariable: true },
          { id: 'vgreeting', name: 'Greeting', isSessionVariable: true },
        ],
        theme: {},
        settings: {},
      }),
    })
    await new PublishBot().handle(user, workspace, bot)
    const publicId = (await Bot.findOrFail(bot.id)).publicId!

    // A visitor chats on the public page.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto(`/${publicId}`)
    await page.getByText('Your name?').waitFor()
    const field = page.getByRole('textbox')
    await field.fill('Lin')
    await field.press('Enter')
    await page.getByRole('button', { name: 'Good' }).click()
    await page.getByText('Hello Lin!').waitFor()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/results`)
    await page.getByTestId('results-table').waitFor()
    const rows = page.getByTestId('result-row')
    await waitFor(async () => (await rows.count()) === 1, 'the result')
    const headers = await page.getByTestId('results-column-header').allInnerTexts()
    assert.include(headers, 'Greeting')
    const cell = rows
      .first()
      .locator('[role="cell"]')
      .nth(headers.indexOf('Greeting') + 1)
    assert.equal((await cell.innerText()).trim(), 'Hello Lin')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('results-export').click(),
    ])
    const [header, row] = (await readFile((await download.path())!, 'utf8')).trim().split('\n')
    assert.include(header.split(','), 'Greeting')
    assert.include(row, 'Hello Lin')
  }).timeout(300_000)

  test('a bot without results shows what to do next', async ({ visit }) => {
    const email = uniqueEmail('results-empty')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Quiet bot',
    })
    await page.goto(`/bots/${bot.id}/results`)
    await page.getByTestId('results-empty').waitFor()
  })
})
