import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
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

test.group('Bot editor in the browser', () => {
  test('add blocks by dragging, undo/redo, autosave, reload, publish and unpublish', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('editor')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Editor test',
    })
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)
    const canvas = page.getByTestId('editor-canvas')
    await canvas.waitFor()

    // A text bubble dropped on the canvas makes a group.
    await page
      .getByTestId('sidebar-block-text')
      .dragTo(canvas, { targetPosition: { x: 600, y: 300 } })
    await page.getByTestId('group-node').first().waitFor()
    assert.equal(await page.getByTestId('group-node').count(), 1)
    const textInput = page.getByTestId('text-bubble-input')
    if (await textInput.isVisible()) await textInput.fill('Hello there')

    // A text input dropped on that group joins it.
    await page
      .getByTestId('sidebar-block-text-input')
      .dragTo(page.getByTestId('group-node').first())
    await waitFor(
      async () => (await page.getByTestId('block-item').count()) === 2,
      'the second block'
    )

    await page.getByTestId('undo').click()
    await waitFor(async () => (await page.getByTestId('block-item').count()) === 1, 'undo')
    await page.getByTestId('redo').click()
    await waitFor(async () => (await page.getByTestId('block-item').count()) === 2, 'redo')

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      return saved.groups.length === 1 && saved.groups[0].blocks.length === 2
    }, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    // Where in the group a drop lands follows the pointer; the insertion index itself is
    // covered by the editing unit tests.
    assert.sameMembers(
      saved.groups[0].blocks.map((b) => b.type),
      ['text', 'text input']
    )

    await page.reload()
    await page.getByTestId('group-node').first().waitFor()
    assert.equal(await page.getByTestId('block-item').count(), 2)
    await page.screenshot({ path: app.makePath('docs/screenshots/editor.png') })

    await page.getByTestId('publish').click()
    await waitFor(async () => !!(await PublishedBot.findBy('bot_id', bot.id)), 'the published copy')
    // Share: a bad public ID is explained before anything is sent; a good one is saved.
    await page.getByTestId('share-button').click()
    await page.getByTestId('public-id-input').fill('no spaces please')
    await page
      .getByTestId('public-id-error')
      .getByText('Only letters, digits, hyphens and dots are allowed.')
      .waitFor()
    await page.getByTestId('public-id-input').fill(`editor-${bot.id}`)
    await page.getByTestId('public-id-save').click()
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).publicId === `editor-${bot.id}`,
      'the public ID'
    )
    await page.keyboard.press('Escape')

    // Close to new responses, then reopen.
    await page.getByTestId('publish-menu').click()
    await page.getByTestId('close-bot').click()
    await page.getByTestId('closed-badge').waitFor()
    assert.isTrue((await Bot.findOrFail(bot.id)).isClosed)
    await page.getByTestId('close-bot').waitFor({ state: 'detached' })
    await page.getByTestId('publish-menu').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('reopen-bot').click()
    await page.getByTestId('closed-badge').waitFor({ state: 'detached' })
    await page.getByTestId('reopen-bot').waitFor({ state: 'detached' })

    await page.getByTestId('publish-menu').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('unpublish').click()
    await waitFor(async () => !(await PublishedBot.findBy('bot_id', bot.id)), 'unpublishing')
  })

  test('read mode is read-only', async ({ visit }) => {
    const ownerEmail = uniqueEmail('owner')
    const page = await visit('/signin')
    await signInWithLink(page, ownerEmail)
    const owner = await User.findByOrFail('email', ownerEmail)
    const workspace = await firstWorkspaceOf(owner)
    const bot = await new CreateBot().handle(owner, workspace, { name: 'Shared flow' })
    const stored = await Bot.findOrFail(bot.id)
    stored.settings = { ...stored.settings, publicShare: { isEnabled: true } } as any
    await stored.save()

    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    await page.waitForURL(/\/signin$/)
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('readonly-banner').waitFor()
    await page.getByTestId('editor-canvas').waitFor()
    if ((await page.getByTestId('blocks-sidebar').count()) > 0) {
      throw new Error('the sidebar must not show in read-only modes')
    }
  })
})
