import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A bot whose one block is open, with 60 'Item N' variables and two e-mail ones. */
async function openPicker(visit: (url: string) => Promise<Page>, name: string) {
  const email = uniqueEmail(name)
  const page = await visit('/signin')
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), { name })
  const stored = await Bot.findOrFail(bot.id)
  stored.groups = [
    {
      id: 'g1',
      title: 'Group #1',
      graphCoordinates: { x: 420, y: 80 },
      blocks: [{ id: 'bi', type: 'text input', options: {} }],
    },
  ]
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  stored.variables = [
    ...Array.from({ length: 60 }, (_, i) => ({ id: `vitem${i}`, name: `Item ${i}` })),
    { id: 'vemail', name: 'Email' },
    { id: 'vcustomer', name: 'Customer email' },
  ]
  await stored.save()

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/bots/${bot.id}/edit`)
  await page.locator('[data-block-id="bi"]').click()
  await page.getByTestId('block-settings').waitFor()
  const search = page.getByTestId('variable-search')
  await search.scrollIntoViewIfNeeded()
  return { page, botId: bot.id, search }
}

const names = (page: Page) =>
  page.getByTestId('variable-suggestion').evaluateAll((rows) => rows.map((r) => r.textContent))

test.group('Bot editor / variable picker', () => {
  test('suggestions on focus (50 at most), case-insensitive substring, create entry only for a new name', async ({
    visit,
    assert,
  }) => {
    const { page, search } = await openPicker(visit, 'picker-list')
    const list = page.getByTestId('variable-suggestions')
    assert.isFalse(await list.isVisible())

    await search.focus()
    await list.waitFor()
    assert.equal(await page.getByTestId('variable-suggestion').count(), 50)
    assert.equal(await page.getByTestId('variable-create').count(), 0)

    await search.fill('EMAIL')
    await waitFor(async () => (await names(page)).length === 2, 'two e-mail variables')
    assert.deepEqual(await names(page), ['Email', 'Customer email'])
    // 'EMAIL' is not the name of a variable: it can be created.
    assert.include(await page.getByTestId('variable-create').textContent(), 'EMAIL')

    await search.fill('Email')
    await waitFor(
      async () => (await page.getByTestId('variable-create').count()) === 0,
      'no create'
    )
    assert.deepEqual(await names(page), ['Email', 'Customer email'])

    await search.fill('item 5')
    await waitFor(async () => (await names(page)).length === 11, 'Item 5 and Item 50-59')
    assert.equal((await names(page))[0], 'Item 5')
  })

  test('arrows move, Enter picks, Escape closes the list and leaves the panel open', async ({
    visit,
    assert,
  }) => {
    const { page, search } = await openPicker(visit, 'picker-keys')
    const list = page.getByTestId('variable-suggestions')
    const options = page.getByRole('option')
    await search.fill('email')
    await waitFor(async () => (await names(page)).length === 2, 'the e-mail variables')
    // Entries: Create "email", Email, Customer email. Nothing highlighted yet.
    assert.equal(await page.locator('[role=option][aria-selected=true]').count(), 0)

    await search.press('ArrowDown')
    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true')
    await search.press('ArrowDown')
    await search.press('ArrowDown')
    assert.equal(await options.nth(2).getAttribute('aria-selected'), 'true')
    assert.equal(
      await search.getAttribute('aria-activedescendant'),
      await options.nth(2).getAttribute('id')
    )
    // Past the last entry: back to the first; up from the first: the last.
    await search.press('ArrowDown')
    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true')
    await search.press('ArrowUp')
    await search.press('ArrowUp')
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true')

    await search.press('Enter')
    assert.equal(await search.inputValue(), 'Email')
    await list.waitFor({ state: 'hidden' })

    await search.press('ArrowDown')
    await list.waitFor()
    await search.press('Escape')
    await list.waitFor({ state: 'hidden' })
    assert.isTrue(await page.getByTestId('block-settings').isVisible())
  })

  test('create (sanitised, 255 max, id v + id, session variable), rename inline, remove', async ({
    visit,
    assert,
  }) => {
    const { page, botId, search } = await openPicker(visit, 'picker-edit')

    // Characters the rule forbids vanish as typed.
    await search.fill('Phone number?! {{x}}')
    assert.equal(await search.inputValue(), 'Phone number x')
    await search.press('Enter')
    assert.equal(await search.inputValue(), '')
    await search.fill('phone NUMBER')
    await waitFor(async () => (await names(page)).includes('Phone number x'), 'the new variable')

    // 300 characters typed: 255 kept.
    await search.fill('a'.repeat(300))
    assert.lengthOf(await search.inputValue(), 255)
    await page.getByTestId('variable-create').click()

    // Inline rename: Enter saves; Escape (or the cancel button) keeps the old name.
    await search.fill('Customer')
    const row = page.getByTestId('variable-suggestion').filter({ hasText: 'Customer email' })
    await row.getByTestId('variable-rename').click()
    const rename = page.getByTestId('variable-rename-input')
    await rename.fill('Client e-mail?')
    assert.equal(await rename.inputValue(), 'Client e-mail')
    await rename.press('Escape')
    await rename.waitFor({ state: 'detached' })
    assert.isTrue(await page.getByTestId('block-settings').isVisible())
    await search.fill('email')
    await page
      .getByTestId('variable-suggestion')
      .filter({ hasText: 'Customer email' })
      .getByTestId('variable-rename')
      .click()
    await rename.fill('Client e-mail')
    await rename.press('Enter')
    await search.fill('client')
    await waitFor(async () => (await names(page)).join() === 'Client e-mail', 'the renamed one')
    // A blank name is ignored.
    await page.getByTestId('variable-rename').click()
    await rename.fill('   ')
    await page.getByTestId('variable-rename-save').click()
    await rename.waitFor({ state: 'detached' })
    await search.fill('client')
    await waitFor(async () => (await names(page)).join() === 'Client e-mail', 'the name kept')

    await search.fill('Item 7')
    await page
      .getByTestId('variable-suggestion')
      .filter({ hasText: /^Item 7$/ })
      .getByTestId('variable-remove')
      .click()
    await waitFor(async () => !(await names(page)).includes('Item 7'), 'Item 7 removed')

    await hideTab(page)
    // The last change written: with live saving, the earlier ones may be in the draft alone.
    await waitFor(async () => {
      const bot = await Bot.findOrFail(botId)
      return (
        bot.variables.some((variable) => variable.name === 'Client e-mail') &&
        !bot.variables.some((variable) => variable.id === 'vitem7')
      )
    }, 'the save')
    const saved = (await Bot.findOrFail(botId)).variables
    const phone = saved.find((variable) => variable.name === 'Phone number x')!
    assert.match(phone.id, /^v[a-z][a-z0-9]{24}$/)
    assert.isTrue(phone.isSessionVariable)
    const long = saved.find((variable) => variable.name.startsWith('aaa'))!
    assert.lengthOf(long.name, 255)
    assert.isTrue(long.isSessionVariable)
    assert.equal(saved.find((variable) => variable.id === 'vcustomer')!.name, 'Client e-mail')
    assert.isUndefined(saved.find((variable) => variable.id === 'vitem7'))
    assert.lengthOf(saved, 63)
  })
})
