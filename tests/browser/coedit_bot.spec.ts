import { test } from '@japa/runner'
import type { BrowserContext, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { RemoveMember } from '#actions/workspaces/remove_member'
import type { WorkspaceRole } from '#shared/workspace_roles'
import { signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * Editing together (docs/editor.md "Editing together"): builders signed in in browser
 * contexts of their own, on one bot, with real gestures; each sees the others' edits, and
 * concurrent edits merge the same way everywhere.
 */

/** Three groups of one text bubble each; the first one says "Hello". */
async function seedBot(email: string) {
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const bot = await new CreateBot().handle(user, workspace, { name: 'Together' })
  const stored = await Bot.findOrFail(bot.id)
  const bubble = (id: string, text: string) => ({
    id,
    type: 'text',
    content: { plainText: text, richText: [{ type: 'p', children: [{ text }] }] },
  })
  stored.groups = [
    {
      id: 'g1',
      title: 'Welcome',
      graphCoordinates: { x: 320, y: 0 },
      blocks: [bubble('b1', 'Hello')],
    },
    {
      id: 'g2',
      title: 'Second',
      graphCoordinates: { x: 760, y: -120 },
      blocks: [bubble('c1', 'Two')],
    },
    {
      id: 'g3',
      title: 'Third',
      graphCoordinates: { x: 760, y: 200 },
      blocks: [bubble('d1', 'Three')],
    },
  ] as never
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  await stored.save()
  return { user, workspace, bot: stored }
}

/** Another person, signed in in a browser context of their own, member of the workspace. */
async function colleague(page: Page, workspace: Workspace, name: string, role: WorkspaceRole) {
  const email = uniqueEmail(name.toLowerCase())
  const context = await page
    .context()
    .browser()!
    .newContext({
      baseURL: `http://127.0.0.1:${process.env.PORT}`,
      viewport: { width: 1440, height: 900 },
    })
  const other = await context.newPage()
  await signInWithLink(other, email)
  const user = await User.findByOrFail('email', email)
  user.name = name
  await user.save()
  await WorkspaceMember.create({ workspaceId: workspace.id, userId: user.id, role })
  return { context, page: other, user }
}

async function openEditor(page: Page, botId: string) {
  await page.goto(`/bots/${botId}/edit`)
  await page.locator('[data-testid="group-node"][data-group-id="g3"]').waitFor()
  // Joined the shared draft (until then, saves go the REST way).
  await page.getByTestId('coedit-live').waitFor({ state: 'attached', timeout: 30_000 })
}

/** Opens a bubble's settings and puts the cursor at the start or the end of its text. */
async function openBubble(page: Page, blockId: string, caret: 'start' | 'end') {
  await page.locator(`[data-block-id="${blockId}"]`).click()
  const input = page.getByTestId('text-bubble-input')
  await input.waitFor()
  await input.click()
  await page.keyboard.press(caret === 'start' ? 'Control+Home' : 'Control+End')
  return input
}

const groupBox = (page: Page, id: string) =>
  page.locator(`[data-testid="group-node"][data-group-id="${id}"]`).boundingBox()

async function storedGroup(botId: string, id: string) {
  return (await Bot.findOrFail(botId)).groups.find((group) => group.id === id)
}

async function closeAll(contexts: BrowserContext[]) {
  for (const context of contexts) await context.close()
}

test.group('Editing together: the bot editor', () => {
  test('three builders: presence, pointers, and both texts typed at once in one bubble', async ({
    visit,
  }) => {
    const email = uniqueEmail('coedit-ann')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { bot, workspace, user } = await seedBot(email)
    user.name = 'Ann'
    await user.save()
    const bob = await colleague(ann, workspace, 'Bob', 'MEMBER')
    const cy = await colleague(ann, workspace, 'Cy', 'MEMBER')
    try {
      await openEditor(ann, bot.id)
      await openEditor(bob.page, bot.id)
      await openEditor(cy.page, bot.id)

      // Each one sees the two others in the header.
      for (const [page, others] of [
        [ann, ['Bob', 'Cy']],
        [bob.page, ['Ann', 'Cy']],
        [cy.page, ['Ann', 'Bob']],
      ] as const) {
        for (const name of others) {
          await page.locator(`[data-testid="coedit-peer"][data-user-name="${name}"]`).waitFor()
        }
      }
      // Ann's pointer on the canvas shows on Bob's, with her name.
      // Right of the blocks sidebar, which floats over the canvas's left side.
      const pane = (await ann.locator('.react-flow__pane').boundingBox())!
      await ann.mouse.move(pane.x + pane.width * 0.6, pane.y + pane.height * 0.7, { steps: 5 })
      await bob.page.locator('[data-testid="coedit-cursor"][data-user-name="Ann"]').waitFor()

      // Ann writes at the end of the bubble while Bob writes at its start.
      const annInput = await openBubble(ann, 'b1', 'end')
      const bobInput = await openBubble(bob.page, 'b1', 'start')
      // What each edits is outlined in their colour on the others' canvases.
      await waitFor(
        async () =>
          ((await cy.page.getByTestId('coedit-outlines').textContent()) ?? '').includes('b1'),
        'outline of the bubble being edited'
      )
      await Promise.all([
        annInput.pressSequentially(' from Ann', { delay: 40 }),
        bobInput.pressSequentially('Bob says: ', { delay: 40 }),
      ])
      const expected = 'Bob says: Hello from Ann'
      for (const input of [annInput, bobInput]) {
        await waitFor(async () => (await input.inputValue()) === expected, 'both texts')
      }
      await waitFor(
        async () => (await storedGroup(bot.id, 'g1'))?.blocks[0].content?.plainText === expected,
        'the merged text in the draft'
      )
      // Cy, who only watched, sees it on the canvas; a reload starts from the merged draft.
      await cy.page.locator('[data-block-id="b1"]', { hasText: expected }).waitFor()
      await cy.page.reload()
      await cy.page.locator('[data-block-id="b1"]', { hasText: expected }).waitFor()
    } finally {
      await closeAll([bob.context, cy.context])
    }
  }).timeout(420_000)

  test('move and edit merge, undo is per person, a delete against an edit ends the same', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('coedit-move')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { bot, workspace } = await seedBot(email)
    const bob = await colleague(ann, workspace, 'Bob', 'MEMBER')
    try {
      await openEditor(ann, bot.id)
      await openEditor(bob.page, bot.id)
      await ann.locator('[data-testid="coedit-peer"]').waitFor()

      // Bob types in the bubble of group g2 while Ann drags that group.
      const bobInput = await openBubble(bob.page, 'c1', 'end')
      const before = (await groupBox(ann, 'g2'))!
      // The card's bottom edge: a press there drags the group (the title is a text field).
      const grip = { x: before.x + before.width / 2, y: before.y + before.height - 4 }
      await ann.mouse.move(grip.x, grip.y)
      await ann.mouse.down()
      const typing = bobInput.pressSequentially(' by Bob', { delay: 30 })
      await ann.mouse.move(grip.x, grip.y + 260, { steps: 12 })
      await ann.mouse.up()
      await typing
      await waitFor(async () => {
        const group = await storedGroup(bot.id, 'g2')
        return group?.blocks[0].content?.plainText === 'Two by Bob' && group.graphCoordinates.y > 0
      }, 'the move and the text both in the draft')
      const moved = (await storedGroup(bot.id, 'g2'))!.graphCoordinates
      // Both canvases show the group at the same place, with Bob's text.
      await waitFor(async () => {
        const [a, b] = [await groupBox(ann, 'g2'), await groupBox(bob.page, 'g2')]
        return !!a && !!b && Math.abs(a.y - before.y - 260) < 40 && Math.abs(b.y - a.y) < 2
      }, 'the group moved in both editors')
      await ann.locator('[data-block-id="c1"]', { hasText: 'Two by Bob' }).waitFor()

      // Ann's Ctrl+Z undoes her move, not Bob's typing.
      const pane = (await ann.locator('.react-flow__pane').boundingBox())!
      await ann.mouse.click(pane.x + pane.width * 0.6, pane.y + pane.height - 60)
      await ann.keyboard.press('Control+z')
      await waitFor(async () => {
        const group = await storedGroup(bot.id, 'g2')
        return (
          group?.graphCoordinates.y === -120 && group.blocks[0].content?.plainText === 'Two by Bob'
        )
      }, 'her move undone, his text kept')
      assert.notEqual(moved.y, -120)
      assert.equal(await bobInput.inputValue(), 'Two by Bob')

      // Bob edits the bubble of g3 while Ann deletes that group: gone for both.
      const third = await openBubble(bob.page, 'd1', 'end')
      const typingThird = third.pressSequentially(' and more', { delay: 30 })
      const thirdBox = (await groupBox(ann, 'g3'))!
      await ann.mouse.click(thirdBox.x + thirdBox.width / 2, thirdBox.y + thirdBox.height - 4)
      await ann.keyboard.press('Delete')
      await typingThird.catch(() => {
        // The panel may close under his fingers: the block is gone.
      })
      for (const page of [ann, bob.page]) {
        await page
          .locator('[data-testid="group-node"][data-group-id="g3"]')
          .waitFor({ state: 'detached' })
      }
      await waitFor(async () => !(await storedGroup(bot.id, 'g3')), 'g3 deleted in the draft')
      await bob.page.getByTestId('text-bubble-input').waitFor({ state: 'detached' })
    } finally {
      await closeAll([bob.context])
    }
  }).timeout(420_000)

  test('offline for 10 s, then merged; a guest watches read-only; a removed member is shut out', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('coedit-offline')
    const ann = await visit('/signin')
    await ann.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(ann, email)
    const { bot, workspace } = await seedBot(email)
    const bob = await colleague(ann, workspace, 'Bob', 'MEMBER')
    const guest = await colleague(ann, workspace, 'Gail', 'GUEST')
    try {
      await openEditor(ann, bot.id)
      await openEditor(bob.page, bot.id)
      await openEditor(guest.page, bot.id)
      await bob.page.locator('[data-testid="coedit-peer"][data-user-name="Gail"]').waitFor()

      // Bob loses the network, keeps typing; the editor says it is offline.
      await bob.context.setOffline(true)
      const bobInput = await openBubble(bob.page, 'c1', 'end')
      await bobInput.pressSequentially(' offline', { delay: 20 })
      await bob.page.getByTestId('coedit-offline').waitFor()
      // Meanwhile Ann edits another bubble.
      const annInput = await openBubble(ann, 'b1', 'end')
      await annInput.pressSequentially(' online', { delay: 20 })
      await new Promise((resolve) => setTimeout(resolve, 10_000))
      assert.equal((await storedGroup(bot.id, 'g2'))?.blocks[0].content?.plainText, 'Two')

      await bob.context.setOffline(false)
      await bob.page.getByTestId('coedit-offline').waitFor({ state: 'detached', timeout: 15_000 })
      await waitFor(async () => {
        const stored = await Bot.findOrFail(bot.id)
        const text = (id: string) =>
          stored.groups.flatMap((group) => group.blocks).find((block) => block.id === id)?.content
            ?.plainText
        return text('c1') === 'Two offline' && text('b1') === 'Hello online'
      }, 'both edits in the draft')
      await bob.page.locator('[data-block-id="b1"]', { hasText: 'Hello online' }).waitFor()
      await ann.locator('[data-block-id="c1"]', { hasText: 'Two offline' }).waitFor()

      // The guest saw it all live, and cannot type.
      await guest.page.locator('[data-block-id="c1"]', { hasText: 'Two offline' }).waitFor()
      await guest.page.locator('[data-block-id="b1"]', { hasText: 'Hello online' }).waitFor()
      await guest.page.locator('[data-block-id="b1"]').click()
      const guestInput = guest.page.getByTestId('text-bubble-input')
      await guestInput.waitFor()
      assert.isTrue(
        await guestInput.evaluate((element) => (element as HTMLTextAreaElement).readOnly)
      )

      // Bob is removed from the workspace: his editor closes at once.
      await new RemoveMember().handle(workspace, bob.user.id)
      await bob.page.getByText('Bot not found').waitFor({ timeout: 10_000 })
      assert.equal(await bob.page.locator('[data-testid="group-node"]').count(), 0)
    } finally {
      await closeAll([bob.context, guest.context])
    }
  }).timeout(420_000)
})
