import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import BotInvitation from '#models/bot_invitation'
import ThemeTemplate from '#models/theme_template'
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

async function backgroundOf(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((element) => getComputedStyle(element).backgroundColor)
}

async function signedInWithBot(visit: (url: string) => Promise<Page>, prefix: string) {
  const email = uniqueEmail(prefix)
  const page = await visit('/signin')
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
    name: 'Theme test',
  })
  await page.setViewportSize({ width: 1280, height: 720 })
  return { page, user, bot }
}

test.group('Bot editor Theme and Settings tabs', () => {
  test('a theme colour and settings persist; bad input is kept, explained and not saved', async ({
    visit,
    assert,
  }) => {
    const { page, bot } = await signedInWithBot(visit, 'theme')
    await page.goto(`/bots/${bot.id}/theme`)
    await page.getByTestId('theme-panel').waitFor()

    await page.getByTestId('theme-panel-menu-chat').click()
    const hostBackground = page.getByTestId('theme-chat-hostBubbles-backgroundColor')
    await hostBackground.fill('#ff0066')
    await waitFor(
      async () => (await backgroundOf(page, 'preview-host-bubble')) === 'rgb(255, 0, 102)',
      'the preview to follow the colour'
    )
    // Out of bounds: the typed text stays with its error, nothing is written.
    const opacity = page.getByTestId('theme-chat-hostBubbles-opacity')
    await opacity.fill('2')
    await page
      .getByTestId('theme-chat-hostBubbles-opacity-error')
      .getByText('between 0 and 1')
      .waitFor()
    await opacity.blur()
    assert.equal(await opacity.inputValue(), '2')
    await hostBackground.fill('#12')
    await page.getByTestId('theme-chat-hostBubbles-backgroundColor-error').waitFor()
    await hostBackground.fill('#ff0066')

    await page.getByTestId('editor-tab-settings').click()
    await page.getByTestId('settings-panel').waitFor()
    await page.getByTestId('settings-general-isInputPrefillEnabled').click()
    await page.getByTestId('settings-panel-menu-typing').click()
    const delay = page.getByTestId('settings-typingEmulation-delayBetweenBubbles')
    await delay.fill('7')
    await page.getByTestId('settings-typingEmulation-delayBetweenBubbles-error').waitFor()
    await delay.fill('2.5')
    await page
      .getByTestId('settings-typingEmulation-delayBetweenBubbles-error')
      .waitFor({ state: 'detached' })

    await page.getByTestId('settings-panel-menu-whatsapp').click()
    const expiry = page.getByTestId('settings-whatsApp-sessionExpiryTimeout')
    await expiry.fill('0')
    await page.getByTestId('settings-whatsApp-sessionExpiryTimeout-error').waitFor()
    await expiry.fill('12')

    await page.getByTestId('settings-panel-menu-security').click()
    await page.getByTestId('allowed-origin-add').click()
    const origin = page.getByTestId('allowed-origin-input').first()
    await origin.fill('https://example.com/page')
    await page.getByTestId('allowed-origin-error').waitFor()
    await origin.fill('https://example.com')
    await page.getByTestId('allowed-origin-error').waitFor({ state: 'detached' })

    await hideTab(page)
    await waitFor(async () => {
      const saved = await Bot.findOrFail(bot.id)
      return saved.settings.security?.allowedOrigins?.[0] === 'https://example.com'
    }, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    assert.equal(saved.theme.chat?.hostBubbles?.backgroundColor, '#ff0066')
    assert.isUndefined(saved.theme.chat?.hostBubbles?.opacity)
    assert.isTrue(saved.settings.general?.isInputPrefillEnabled)
    assert.equal(saved.settings.typingEmulation?.delayBetweenBubbles, 2.5)
    assert.equal(saved.settings.whatsApp?.sessionExpiryTimeout, 12)
    assert.deepEqual(saved.settings.security?.allowedOrigins, ['https://example.com'])

    await page.reload()
    await page.getByTestId('settings-panel-menu-security').click()
    assert.equal(
      await page.getByTestId('allowed-origin-input').first().inputValue(),
      'https://example.com'
    )
    await page.getByTestId('editor-tab-theme').click()
    await page.getByTestId('theme-panel-menu-chat').click()
    assert.equal(await hostBackground.inputValue(), '#ff0066')
    assert.equal(await backgroundOf(page, 'preview-host-bubble'), 'rgb(255, 0, 102)')
  })

  test('apply a preset; save, apply, rename and delete a template of my workspace', async ({
    visit,
    assert,
  }) => {
    const { page, bot } = await signedInWithBot(visit, 'templates')
    await page.goto(`/bots/${bot.id}/theme`)
    await page.getByTestId('theme-panel-menu-templates').click()
    assert.isAtLeast(await page.getByTestId('theme-gallery').locator('button').count(), 6)

    await page.getByTestId('theme-preset-dark').click()
    await waitFor(
      async () =>
        (await page.getByTestId('theme-preset-dark').getAttribute('aria-pressed')) === 'true',
      'the preset to be selected'
    )
    assert.equal(await backgroundOf(page, 'preview-host-bubble'), 'rgb(30, 41, 59)')

    await page.getByTestId('theme-panel-menu-my-templates').click()
    await page.getByTestId('my-templates-empty').waitFor()
    await page.getByTestId('my-template-save').click()
    await page.getByText('Enter a name for the template.').waitFor()
    await page.getByTestId('my-template-name').fill('Night mode')
    await page.getByTestId('my-template-save').click()
    await page.getByTestId('my-template').first().waitFor()
    const template = await ThemeTemplate.findByOrFail('workspace_id', bot.workspaceId)
    assert.equal(template.name, 'Night mode')
    assert.equal(template.theme.chat?.hostBubbles?.backgroundColor, '#1e293b')

    // Another preset, then the saved template brings the dark bubbles back.
    await page.getByTestId('theme-panel-menu-templates').click()
    await page.getByTestId('theme-preset-neon').click()
    await waitFor(
      async () => (await backgroundOf(page, 'preview-host-bubble')) === 'rgb(13, 13, 20)',
      'the neon preset'
    )
    await page.getByTestId('theme-panel-menu-my-templates').click()
    await page.getByTestId('my-template-apply').click()
    await waitFor(
      async () => (await backgroundOf(page, 'preview-host-bubble')) === 'rgb(30, 41, 59)',
      'the template to apply'
    )
    await hideTab(page)
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).selectedThemeTemplateId === template.id,
      'the saved template id'
    )
    assert.equal((await Bot.findOrFail(bot.id)).theme.chat?.hostBubbles?.backgroundColor, '#1e293b')

    await page.getByTestId('my-template-rename').click()
    await page.getByTestId('my-template-rename-input').fill('Night')
    await page.getByTestId('my-template-rename-save').click()
    await waitFor(async () => (await template.refresh()).name === 'Night', 'the rename')

    await page.getByTestId('my-template-delete').click()
    await page.getByTestId('confirm-action').click()
    await page.getByTestId('my-templates-empty').waitFor()
    await waitFor(async () => !(await ThemeTemplate.find(template.id)), 'the deletion')
  })

  test('invite a collaborator from the Share popover; a viewer gets the tabs read-only', async ({
    visit,
    assert,
  }) => {
    const { page, bot } = await signedInWithBot(visit, 'sharer')
    const viewerEmail = uniqueEmail('viewer')
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('share-button').click()
    await page.getByTestId('invitations-empty').waitFor()
    await page.getByTestId('invite-email').fill(viewerEmail)
    await page.getByTestId('invite-submit').click()
    await page.getByText('Invitation sent').waitFor()
    const row = page.locator(`[data-testid="bot-invitation"][data-email="${viewerEmail}"]`)
    await row.waitFor()
    assert.equal((await BotInvitation.findByOrFail('email', viewerEmail)).type, 'READ')

    await row.getByTestId('bot-invitation-type').click()
    await page.getByRole('option', { name: 'Can edit' }).click()
    await waitFor(
      async () => (await BotInvitation.findByOrFail('email', viewerEmail)).type === 'WRITE',
      'the type change'
    )
    await row.getByTestId('bot-invitation-type').click()
    await page.getByRole('option', { name: 'Can view' }).click()
    await waitFor(
      async () => (await BotInvitation.findByOrFail('email', viewerEmail)).type === 'READ',
      'the type change back'
    )

    // A second invitation, removed again.
    const other = uniqueEmail('other')
    await page.getByTestId('invite-email').fill(other)
    await page.getByTestId('invite-submit').click()
    const otherRow = page.locator(`[data-testid="bot-invitation"][data-email="${other}"]`)
    await otherRow.getByTestId('bot-invitation-remove').click()
    await otherRow.getByTestId('bot-invitation-remove-confirm').click()
    await otherRow.waitFor({ state: 'detached' })
    await waitFor(async () => !(await BotInvitation.findBy('email', other)), 'the removal')
    await page.keyboard.press('Escape')

    await page.goto('/bots')
    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    await page.waitForURL(/\/signin$/)
    await signInWithLink(page, viewerEmail)
    await page.goto(`/bots/${bot.id}/theme`)
    await page.getByTestId('readonly-banner').waitFor()
    await page.getByTestId('theme-panel-menu-chat').click()
    assert.isTrue(await page.getByTestId('theme-chat-hostBubbles-backgroundColor').isDisabled())
    await page.goto(`/bots/${bot.id}/settings`)
    assert.isTrue(await page.getByTestId('settings-general-isInputPrefillEnabled').isDisabled())
  })
})
