import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import type { Block } from '#shared/bot/types'

/**
 * The variable fields of the generated block forms in the bot editor are the variable
 * picker: a builder can pick a variable or create one from a
 * block's "Save the answer in" field or a response-mapping row.
 */

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A bot with one block (open in the settings panel) and two e-mail variables. */
async function openBlock(visit: (url: string) => Promise<Page>, name: string, block: Block) {
  const email = uniqueEmail(name)
  const page = await visit('/signin')
  page.setDefaultTimeout(60_000)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), { name })
  const stored = await Bot.findOrFail(bot.id)
  stored.groups = [
    { id: 'g1', title: 'Group #1', graphCoordinates: { x: 420, y: 80 }, blocks: [block] },
  ]
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  stored.variables = [
    { id: 'vemail', name: 'Email' },
    { id: 'vcustomer', name: 'Customer email' },
  ]
  await stored.save()

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/bots/${bot.id}/edit`)
  await page.locator(`[data-block-id="${block.id}"]`).click()
  await page.getByTestId('block-form').waitFor()
  return { page, botId: bot.id }
}

const suggestionNames = (page: Page) =>
  page.getByTestId('variable-suggestion').evaluateAll((rows) => rows.map((r) => r.textContent))

async function savedBot(page: Page, botId: string, ready: (bot: Bot) => boolean) {
  await hideTab(page)
  let bot: Bot | undefined
  await waitFor(async () => {
    bot = await Bot.findOrFail(botId)
    return ready(bot)
  }, 'the save')
  return bot!
}

test.group('Bot editor / variable fields of block forms are the picker', () => {
  test('"Save the answer in": create a variable, undo, pick one with arrows and Enter', async ({
    visit,
    assert,
  }) => {
    const { page, botId } = await openBlock(visit, 'field-picker', {
      id: 'bi',
      type: 'text input',
      options: {},
    } as Block)
    const field = page.getByTestId('block-form').getByTestId('field-variableId')
    const list = page.getByTestId('variable-suggestions')

    // The form's label names the picker.
    assert.equal(
      await page.getByLabel('Save the answer in a variable').getAttribute('data-testid'),
      'field-variableId'
    )
    await field.focus()
    await list.waitFor()
    assert.deepEqual(await suggestionNames(page), ['Email', 'Customer email'])

    // A new name, sanitised as typed, is created from the field and chosen at once.
    await field.fill('Answer?')
    assert.equal(await field.inputValue(), 'Answer')
    await page.getByTestId('variable-create').click()
    await list.waitFor({ state: 'hidden' })
    assert.equal(await field.inputValue(), 'Answer')
    const createdId = await field.getAttribute('data-variable-id')
    assert.match(createdId!, /^v[a-z][a-z0-9]{24}$/)
    // It is one of the bot's variables: the panel's picker suggests it.
    await page.getByTestId('variable-search').focus()
    await waitFor(async () => (await suggestionNames(page)).includes('Answer'), 'the new variable')

    // One undo takes back both the new variable and the option.
    await page.getByTestId('undo').click()
    await waitFor(async () => (await field.inputValue()) === '', 'the option undone')
    await field.focus()
    await list.waitFor()
    assert.deepEqual(await suggestionNames(page), ['Email', 'Customer email'])
    await page.getByTestId('redo').click()
    await waitFor(async () => (await field.inputValue()) === 'Answer', 'the option redone')

    // Arrows and Enter pick an existing one: entries are Create "email", Email, Customer email.
    await field.focus()
    await field.fill('email')
    await waitFor(async () => (await suggestionNames(page)).length === 2, 'the e-mail ones')
    await field.press('ArrowDown')
    await field.press('ArrowDown')
    await field.press('ArrowDown')
    await field.press('Enter')
    await list.waitFor({ state: 'hidden' })
    assert.equal(await field.inputValue(), 'Customer email')
    assert.equal(await field.getAttribute('data-variable-id'), 'vcustomer')

    // An unfinished name is dropped on leaving the field.
    await field.fill('Half typ')
    await field.blur()
    assert.equal(await field.inputValue(), 'Customer email')

    // Escape closes the list and leaves the panel open; a second Escape closes the panel.
    await field.focus()
    await list.waitFor()
    await field.press('Escape')
    await list.waitFor({ state: 'hidden' })
    assert.isTrue(await page.getByTestId('block-settings').isVisible())
    await field.press('Escape')
    await page.getByTestId('block-settings').waitFor({ state: 'hidden' })

    const bot = await savedBot(
      page,
      botId,
      (saved) => saved.groups[0].blocks[0].options?.variableId === 'vcustomer'
    )
    const answer = bot.variables.find((variable) => variable.name === 'Answer')!
    assert.equal(answer.id, createdId)
    assert.isTrue(answer.isSessionVariable)
  })

  test('response-mapping rows of the HTTP request block pick or create the variable', async ({
    visit,
    assert,
  }) => {
    const { page, botId } = await openBlock(visit, 'mappingpick', {
      id: 'bh',
      type: 'Webhook',
      options: { responseVariableMapping: [{ id: 'm1', bodyPath: 'data.name' }] },
    } as unknown as Block)
    const form = page.getByTestId('block-form')
    const rows = form.getByTestId('mapping-row')
    const first = rows.nth(0).getByTestId('mapping-variable')
    await first.scrollIntoViewIfNeeded()
    assert.equal(await first.getAttribute('aria-label'), 'Save in variable 1')

    // Enter with nothing highlighted creates the typed name and picks it.
    await first.fill('Customer name')
    await page.getByTestId('variable-create').waitFor()
    await first.press('Enter')
    await waitFor(async () => (await first.inputValue()) === 'Customer name', 'the created one')
    const createdId = await first.getAttribute('data-variable-id')
    assert.match(createdId!, /^v/)

    // A second row: arrows and Enter on an existing variable.
    await form.getByTestId('mapping-add').click()
    const second = rows.nth(1).getByTestId('mapping-variable')
    await second.focus()
    await page.getByTestId('variable-suggestions').waitFor()
    assert.deepEqual(await suggestionNames(page), ['Email', 'Customer email', 'Customer name'])
    await second.press('ArrowDown')
    await second.press('Enter')
    assert.equal(await second.inputValue(), 'Email')

    const bot = await savedBot(page, botId, (saved) => {
      const mapping = saved.groups[0].blocks[0].options?.responseVariableMapping as
        { variableId?: string }[] | undefined
      return mapping?.[1]?.variableId === 'vemail'
    })
    const mapping = bot.groups[0].blocks[0].options!.responseVariableMapping as {
      bodyPath?: string
      variableId?: string
    }[]
    assert.equal(mapping[0].bodyPath, 'data.name')
    assert.equal(mapping[0].variableId, createdId)
    assert.equal(bot.variables.find((variable) => variable.id === createdId)!.name, 'Customer name')
  })
})
