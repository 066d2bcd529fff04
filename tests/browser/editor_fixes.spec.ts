import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Drags with small mouse steps, as a hand does, and drops on the given share of the target. */
async function dragOnto(page: Page, source: Locator, target: Locator, share: number) {
  const from = (await source.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(to.x + 24, to.y + to.height * share, { steps: 12 })
  await page.mouse.up()
}

async function savedOrder(botId: string) {
  const bot = await Bot.findOrFail(botId)
  return bot.groups.find((group) => group.id === 'g1')!.blocks.map((block) => block.id)
}

/** Saves (the tab is hidden) and waits for this order of the group's blocks in the database. */
async function expectSavedOrder(page: Page, botId: string, expected: string[]) {
  await hideTab(page)
  try {
    await waitFor(async () => (await savedOrder(botId)).join() === expected.join(), 'the order')
  } catch {
    throw new Error(`saved order ${(await savedOrder(botId)).join()}, expected ${expected.join()}`)
  }
}

test.group('Bot editor fixes', () => {
  test('a block dropped on the lower half of a block goes after it (new and moved)', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('drop')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), { name: 'Drop' })
    const stored = await Bot.findOrFail(bot.id)
    stored.groups = [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 420, y: 80 },
        blocks: [
          { id: 'ba', type: 'text', content: {} },
          { id: 'bb', type: 'text input', options: {} },
          { id: 'bc', type: 'number input', options: {} },
        ],
      },
    ]
    stored.edges = []
    stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
    await stored.save()

    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)
    const block = (id: string) => page.locator(`[data-block-id="${id}"]`)
    await block('ba').waitFor()

    // From the sidebar onto the lower half of the first block: second place.
    await dragOnto(page, page.getByTestId('sidebar-block-email-input'), block('ba'), 0.75)
    // The new block's settings open (their code loads lazily): closed, they cover no block.
    await page.getByTestId('block-settings-close').click()
    await page.getByTestId('block-settings').waitFor({ state: 'detached' })
    await waitFor(async () => (await page.getByTestId('block-item').count()) === 4, 'the new block')
    const added = (await page.getByTestId('block-item').nth(1).getAttribute('data-block-id'))!
    assert.notInclude(['ba', 'bb', 'bc'], added)

    await expectSavedOrder(page, bot.id, ['ba', added, 'bb', 'bc'])
    // The last block onto the lower half of the first: right after it.
    await dragOnto(page, block('bc'), block('ba'), 0.75)
    await expectSavedOrder(page, bot.id, ['ba', 'bc', added, 'bb'])
    // The first block onto the lower half of the third: right after that one.
    await dragOnto(page, block('ba'), block('bb'), 0.8)
    await expectSavedOrder(page, bot.id, ['bc', added, 'bb', 'ba'])
    // The second block onto the lower half of the last one, across the blocks between.
    await dragOnto(page, block(added), block('ba'), 0.7)
    await expectSavedOrder(page, bot.id, ['bc', 'bb', 'ba', added])
    await dragOnto(page, block(added), block('bc'), 0.7)
    await expectSavedOrder(page, bot.id, ['bc', added, 'bb', 'ba'])
    // And the upper half still means before.
    await dragOnto(page, block('ba'), block('bc'), 0.25)
    await expectSavedOrder(page, bot.id, ['ba', 'bc', added, 'bb'])
  })

  test('the publish menu opens again with the mouse right after choosing an item', async ({
    visit,
  }) => {
    const email = uniqueEmail('publish-menu')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Menu' })
    await new PublishBot().handle(user, (await Workspace.find(workspace.id))!, bot)
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)

    // The second click comes while the first menu is still animating out.
    await page.getByTestId('publish-menu').click()
    await page.getByTestId('close-bot').click()
    await page.getByTestId('publish-menu').click()
    await page.getByTestId('reopen-bot').click({ timeout: 5000 })
    await page.getByTestId('closed-badge').waitFor({ state: 'detached' })
    await page.getByTestId('publish-menu').click()
    await page.getByTestId('close-bot').waitFor({ timeout: 5000 })
    await page.keyboard.press('Escape')
    await waitFor(async () => !(await Bot.findOrFail(bot.id)).isClosed, 'the reopened bot')
  })
})
