import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Locator, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import type { Edge } from '#shared/bot/types'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/** A real pointer drag: press on the source, move in small steps, release over the target. */
async function pointerDrag(page: Page, from: Locator, to: Locator, at?: { x: number; y: number }) {
  const start = (await from.boundingBox())!
  const end = (await to.boundingBox())!
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
  await page.mouse.down()
  await page.mouse.move(end.x + (at ? at.x : end.width / 2), end.y + (at ? at.y : end.height / 2), {
    steps: 15,
  })
  await page.mouse.up()
}

const edgeKey = (edge: Edge) => `${JSON.stringify(edge.from)} -> ${JSON.stringify(edge.to)}`

/** A bot with three groups (one with a choice input) and no edges. */
async function seedBot(email: string) {
  const user = await User.findByOrFail('email', email)
  const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
    name: 'Canvas',
  })
  const stored = await Bot.findOrFail(bot.id)
  stored.groups = [
    {
      id: 'g1',
      title: 'Welcome',
      graphCoordinates: { x: 320, y: 0 },
      blocks: [
        { id: 'b1', type: 'text', content: {} },
        {
          id: 'b2',
          type: 'choice input',
          items: [
            { id: 'i1', content: 'Yes' },
            { id: 'i2', content: 'No' },
          ],
          options: {},
        },
      ],
    },
    {
      id: 'g2',
      title: 'Second',
      graphCoordinates: { x: 760, y: -120 },
      blocks: [{ id: 'c1', type: 'text', content: {} }],
    },
    {
      id: 'g3',
      title: 'Third',
      graphCoordinates: { x: 760, y: 160 },
      blocks: [
        { id: 'd1', type: 'text', content: {} },
        { id: 'd2', type: 'text input', options: {} },
      ],
    },
  ] as any
  stored.edges = []
  stored.variables = [
    { id: 'vfirst', name: 'First name' },
    { id: 'vcity', name: 'City' },
  ] as any
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  await stored.save()
  return { bot: stored, eventId: stored.events[0].id }
}

test.group('Bot editor canvas', () => {
  test('edges are drawn by dragging from event, block and item handles', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('canvas-drag')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot, eventId } = await seedBot(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const group = (id: string) => page.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    const block = (id: string) => page.locator(`[data-testid="block-item"][data-block-id="${id}"]`)
    await group('g3').waitFor()
    const edges = page.locator('.react-flow__edge')

    // The start event onto the first group's title (not its small target dot).
    await pointerDrag(page, page.getByTestId('event-handle'), group('g1'), { x: 150, y: 22 })
    await waitFor(async () => (await edges.count()) === 1, 'the edge from the start event')

    // A block's handle onto another group's body.
    await pointerDrag(page, page.getByTestId('block-handle').first(), group('g2'))
    await waitFor(async () => (await edges.count()) === 2, 'the edge from a block')

    // An item's handle onto a block that is not the first of its group: the edge goes there.
    await pointerDrag(page, block('b2').getByTestId('item-handle').first(), block('d2'))
    await waitFor(async () => (await edges.count()) === 3, 'the edge from an item')

    // The choice's default path onto the target dot of a group.
    await pointerDrag(
      page,
      block('b2').getByTestId('block-handle'),
      group('g3').locator('.react-flow__handle[data-handleid="in"]')
    )
    await waitFor(async () => (await edges.count()) === 4, 'the edge of the default path')

    // No block moved while drawing: each group still holds its blocks.
    assert.equal(await group('g1').getByTestId('block-item').count(), 2)
    assert.equal(await page.getByTestId('group-node').count(), 3)

    await hideTab(page)
    const expected = [
      { from: { eventId }, to: { groupId: 'g1' } },
      { from: { blockId: 'b1' }, to: { groupId: 'g2' } },
      { from: { blockId: 'b2', itemId: 'i1' }, to: { groupId: 'g3', blockId: 'd2' } },
      { from: { blockId: 'b2' }, to: { groupId: 'g3' } },
    ].map((edge) => edgeKey(edge as Edge))
    await waitFor(async () => (await Bot.findOrFail(bot.id)).edges.length === 4, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    assert.sameMembers(saved.edges.map(edgeKey), expected, saved.edges.map(edgeKey).join('\n'))
    assert.deepEqual(
      saved.groups.map((g) => g.blocks.map((b) => b.id)),
      [['b1', 'b2'], ['c1'], ['d1', 'd2']]
    )
  })

  test('click to connect: the hint says what to do, a click on a group ends it', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('canvas-click')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot } = await seedBot(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const group = (id: string) => page.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    await group('g2').waitFor()

    // The handle tells how it works before anything is clicked.
    const handle = page.getByTestId('block-handle').first()
    assert.match((await handle.getAttribute('title')) ?? '', /drag/i)

    await handle.click()
    await page.getByTestId('connect-hint').waitFor()
    assert.include((await handle.getAttribute('class')) ?? '', 'clickconnecting')
    await group('g2').getByTestId('group-title').click()
    await page.getByTestId('connect-hint').waitFor({ state: 'detached' })
    await waitFor(
      async () => (await page.locator('.react-flow__edge').count()) === 1,
      'the clicked edge'
    )

    // Escape cancels a started connection.
    await page.getByTestId('block-handle').nth(2).click()
    await page.getByTestId('connect-hint').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('connect-hint').waitFor({ state: 'detached' })

    await hideTab(page)
    await waitFor(async () => (await Bot.findOrFail(bot.id)).edges.length === 1, 'the autosave')
    const [edge] = (await Bot.findOrFail(bot.id)).edges
    assert.deepEqual(edge.from, { blockId: 'b1' })
    assert.deepEqual(edge.to, { groupId: 'g2' })
  })

  test('fit view and the zoom controls keep clear of the blocks sidebar', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('canvas-fit')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot } = await seedBot(email)
    for (const pinned of [true, false]) {
      await page.evaluate(
        (value) => localStorage.setItem('flowcraft.editor.sidebarLocked', String(value)),
        pinned
      )
      for (const width of [1440, 1280]) {
        await page.setViewportSize({ width, height: width === 1440 ? 900 : 720 })
        await page.goto(`/bots/${bot.id}/edit`)
        await page.locator('[data-group-id="g3"]').waitFor()
        const sidebar = (await page.getByTestId('blocks-sidebar').boundingBox())!
        // The fitted view settles once the nodes are measured.
        await waitFor(
          async () => {
            const start = (await page.getByTestId('start-node').boundingBox())!
            return start.x > sidebar.x + sidebar.width
          },
          `the start node right of the ${pinned ? 'pinned' : 'folded'} sidebar at ${width} px`
        )
        for (const id of ['g1', 'g2', 'g3']) {
          const box = (await page.locator(`[data-group-id="${id}"]`).boundingBox())!
          assert.isAbove(box.x, sidebar.x + sidebar.width, `${id} clear of the sidebar`)
          assert.isAtMost(box.x + box.width, width, `${id} inside the view`)
          assert.isAtLeast(box.y, 56, `${id} below the header`)
        }

        // Each zoom control is the element a click at its centre reaches.
        for (const control of ['zoomin', 'zoomout', 'fitview']) {
          const button = page.locator(`.react-flow__controls-${control}`)
          const box = (await button.boundingBox())!
          const hit = await page.evaluate(
            ({ x, y, name }) =>
              !!document.elementFromPoint(x, y)?.closest(`.react-flow__controls-${name}`),
            { x: box.x + box.width / 2, y: box.y + box.height / 2, name: control }
          )
          assert.isTrue(hit, `${control} clickable (${pinned ? 'pinned' : 'folded'}, ${width})`)
        }
      }
    }
    // Clicking "fit view" after zooming in brings every group back, clear of the sidebar.
    await page.locator('.react-flow__controls-zoomin').click()
    await page.locator('.react-flow__controls-zoomin').click()
    await page.locator('.react-flow__controls-fitview').click()
    const sidebar = (await page.getByTestId('blocks-sidebar').boundingBox())!
    await waitFor(async () => {
      const start = (await page.getByTestId('start-node').boundingBox())!
      const g3 = (await page.locator('[data-group-id="g3"]').boundingBox())!
      return start.x > sidebar.x + sidebar.width && g3.x + g3.width <= 1280
    }, 'the fitted view')
  })

  test('at 390 px: header actions in a menu, blocks in a drawer; screenshots at 1440 and 390', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('canvas-shots')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot } = await seedBot(email)
    await page.evaluate(() => localStorage.setItem('flowcraft.editor.sidebarLocked', 'true'))
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-group-id="g3"]').waitFor()
    await page.getByTestId('start-node').waitFor()
    // On a desktop the actions sit in the header itself: no menu button.
    assert.isFalse(await page.getByTestId('header-menu').isVisible())
    await page.getByTestId('publish').waitFor()
    await page.screenshot({ path: app.makePath('docs/screenshots/bot-editor-1440.png') })

    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('start-node').waitFor()
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), 390)
    // Readable as it opens: at full size on the start event, not the whole bot shrunk to fit.
    const zoom = await page.evaluate(
      () =>
        new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform)
          .a
    )
    assert.equal(zoom, 1)
    const start = (await page.getByTestId('start-node').boundingBox())!
    assert.isAtLeast(start.x, 0)
    assert.isAtMost(start.x + start.width, 390)
    // The blocks sidebar is a rail, even when pinned on a desktop: the canvas keeps the screen.
    const rail = (await page.getByTestId('blocks-sidebar').boundingBox())!
    assert.isAtMost(rail.width, 60)
    await page.screenshot({ path: app.makePath('docs/screenshots/bot-editor-390.png') })

    // The header's actions, hidden behind the menu, are all on screen once it opens.
    assert.isFalse(await page.getByTestId('publish').isVisible())
    await page.getByTestId('header-menu').click()
    for (const id of [
      'publish',
      'share-button',
      'preview-button',
      'editor-tab-theme',
      'editor-tab-settings',
      'editor-tab-results',
    ]) {
      const target = page.getByTestId(id)
      await target.waitFor()
      const box = (await target.boundingBox())!
      assert.isAtMost(box.x + box.width, 390, `${id} on screen`)
      assert.isAtLeast(box.x, 0, `${id} on screen`)
    }
    await page.screenshot({ path: app.makePath('docs/screenshots/bot-editor-390-menu.png') })
    // A popover opened from the menu works, and Escape closes it before the menu.
    await page.getByTestId('share-button').click()
    await page.getByTestId('public-id-input').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('public-id-input').waitFor({ state: 'detached' })
    await page.getByTestId('editor-tab-theme').click()
    await page.waitForURL(/\/theme$/)
    await page.getByTestId('header-actions').waitFor({ state: 'hidden' })

    // Every tab of the editor fits the phone's width.
    for (const tab of ['theme', 'settings', 'results']) {
      await page.goto(`/bots/${bot.id}/${tab}`)
      await page.getByTestId('header-menu').waitFor()
      await page.waitForLoadState('networkidle')
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
      assert.isAtMost(scrollWidth, 390, `${tab} at 390 px`)
    }

    // Blocks: the rail opens as a drawer and a tap adds a block in a new group.
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('start-node').waitFor()
    await page.getByTestId('sidebar-lock').click()
    await page.getByTestId('sidebar-block-text').click()
    await waitFor(async () => (await page.getByTestId('group-node').count()) === 4, 'the new group')
    assert.isFalse(await page.getByTestId('sidebar-block-text').isVisible())
  })
})

test.group('Text bubble variables', () => {
  test('typing {{ offers the variables (arrows + Enter); the Variables picker inserts at the cursor', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('bubble-vars')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot } = await seedBot(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="block-item"][data-block-id="b1"]').click()
    const input = page.getByTestId('text-bubble-input')
    await input.click()
    await page.keyboard.type('Hello {{')
    const suggestions = page.getByTestId('bubble-variable-suggestion')
    await suggestions.first().waitFor()
    assert.sameMembers(await suggestions.allInnerTexts(), ['First name', 'City'])
    await page.keyboard.type('i')
    // "i" is in both names: the arrow moves to the second one, Enter takes it.
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await input.inputValue()) === 'Hello {{City}}', 'the completion')
    await page.getByTestId('bubble-variable-suggestions').waitFor({ state: 'detached' })
    await page.keyboard.type(', welcome!')

    // Back before the comma, then a pick in the Variables picker of the panel.
    await page.keyboard.press('End')
    for (let i = 0; i < ', welcome!'.length; i++) await page.keyboard.press('ArrowLeft')
    await page.keyboard.type(' ')
    const picker = page.getByTestId('variables-picker')
    await picker.getByTestId('variable-search').click()
    await picker
      .getByTestId('variable-suggestion')
      .filter({ hasText: 'First name' })
      .locator('button')
      .first()
      .click()
    await waitFor(
      async () => (await input.inputValue()) === 'Hello {{City}} {{First name}}, welcome!',
      `the inserted variable (${await input.inputValue()})`
    )

    // A variable created in the picker goes in at the cursor too.
    await input.click()
    await page.keyboard.press('End')
    await picker.getByTestId('variable-search').fill('Order')
    await picker.getByTestId('variable-create').click()
    const expected = 'Hello {{City}} {{First name}}, welcome!{{Order}}'
    await waitFor(
      async () => (await input.inputValue()) === expected,
      `the created variable (${await input.inputValue()})`
    )

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      const text = saved.groups[0].blocks[0] as any
      return (
        text.content?.plainText === expected &&
        saved.variables.some((variable) => variable.name === 'Order')
      )
    }, 'the saved bubble')
  })
})

test.group('Embed dialog', () => {
  test('the Copy button of each embed code is on screen and clickable', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('embed-copy')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Embed' })
    await new PublishBot().handle(user, (await Workspace.find(workspace.id))!, bot)
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.goto(`/bots/${bot.id}/edit`)
      if (width === 390) await page.getByTestId('header-menu').click()
      await page.getByTestId('share-button').click()
      await page.getByTestId('embed-button').click()
      const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('embed-snippets') })
      await dialog.waitFor()
      const box = (await dialog.boundingBox())!
      const copy = dialog.getByTestId('embed-copy').first()
      const button = (await copy.boundingBox())!
      assert.isAtMost(button.x + button.width, box.x + box.width, `copy inside at ${width}`)
      assert.isAtMost(box.x + box.width, width, `dialog on screen at ${width}`)
      const hit = await page.evaluate(
        ({ x, y }) => !!document.elementFromPoint(x, y)?.closest('[data-testid="embed-copy"]'),
        { x: button.x + button.width / 2, y: button.y + button.height / 2 }
      )
      assert.isTrue(hit, `copy clickable at ${width}`)
      const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)
      assert.isAtMost(overflow, 0, `no sideways scroll at ${width}`)
      await page.keyboard.press('Escape')
    }
  })
})
