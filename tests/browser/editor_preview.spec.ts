import { test } from '@japa/runner'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'
import { chatFixture } from '#tests/unit/engine/fixtures'
import type { BotV6 } from '#shared/bot/types'

test.group('Bot editor: preview and embed', () => {
  test('preview the draft from the start and from a group; embed snippets once published', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('preview')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const content = chatFixture('conditions').bot as BotV6
    const bot = await new CreateBot().handle(user, workspace, {
      name: 'Preview test',
      content: { ...content, id: undefined },
    })
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('editor-canvas').waitFor()

    // From the start: no variable is set, so the Else branch then path A.
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.waitFor()
    await panel.getByText('Else').waitFor()
    await panel.getByText('Path A').waitFor()

    // From a group: the branch's group, then on to the AB test.
    await panel.getByRole('button', { name: /close/i }).first().click()
    await panel.waitFor({ state: 'detached' })
    const group = page.getByTestId('group-node').filter({ hasText: 'Adult A-name' })
    await group.first().getByTestId('group-menu').click()
    await page.getByTestId('preview-from-group').click()
    await panel.waitFor()
    await panel.getByText('Adult A-name').waitFor()
    await panel.getByText('Path A').waitFor()
    assert.equal(await panel.getByText('Else', { exact: true }).count(), 0)

    // The embed snippets appear in the Share popover once the bot is published.
    await new PublishBot().handle(user, workspace, bot)
    await page.reload()
    await page.getByTestId('share-button').click()
    await page.getByTestId('embed-button').click()
    const snippets = page.getByTestId('embed-snippets')
    await snippets.waitFor()
    assert.include(await snippets.innerText(), '/embed.js')
  })
})
