import { test } from '@japa/runner'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { ConnectTelegram } from '#actions/bots/connect_telegram'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import { startTelegramStandIn } from '../../plugins/telegram/stand_in.js'

/*
 * The channel forms of the bot's settings (docs/channels.md) with real keys and clicks, at
 * desktop and phone widths: a refused token is explained and kept, a good one is saved and
 * cleared from the page, WhatsApp is refused on a plan without it.
 */
test.group('Bot settings: messaging channels', () => {
  test('connect Telegram from the settings; WhatsApp needs a plan with it', async ({
    browserContext,
    assert,
    cleanup,
  }) => {
    const telegram = await startTelegramStandIn({ token: '901:good-token' })
    cleanup(() => telegram.close())
    const email = uniqueEmail('channels')
    const page = await browserContext.newPage()
    // The dev server transforms the editor on its first load, which a busy machine makes slow.
    page.setDefaultTimeout(120_000)
    await page.goto('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'FREE')
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Channels',
    })
    // The stand-in's address is kept with the connection (the form leaves it as it is).
    await new ConnectTelegram().handle(bot, {
      botToken: '901:good-token',
      baseUrl: telegram.baseUrl,
    })

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`/bots/${bot.id}/settings`)
      await page.getByTestId('settings-panel').waitFor()
      await page.getByTestId('settings-panel-menu-telegram').click()
      const state = page.getByTestId('channel-telegram-state')
      await state.getByText('Connected').waitFor()
      assert.equal(await page.getByTestId('settings-telegram-webhookUrl').inputValue(), '')
      await page.getByText('Set when the bot is published with Telegram enabled').waitFor()

      const token = page.getByTestId('channel-telegram-botToken')
      await token.click()
      await page.keyboard.type('901:bad-token')
      await page.keyboard.press('Enter')
      await page
        .getByTestId('channel-telegram-error')
        .getByText('Telegram refused getMe: Unauthorized')
        .waitFor()
      // The typed token stays to be corrected.
      assert.equal(await token.inputValue(), '901:bad-token')

      await token.fill('')
      await page.keyboard.type('901:good-token')
      await page.getByTestId('channel-telegram-connect').click()
      await page.getByText('Connection saved').first().waitFor()
      assert.equal(await token.inputValue(), '')
      assert.equal(await page.getByTestId('channel-telegram-error').count(), 0)

      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth
      )
      assert.isFalse(overflow, `no horizontal scroll at ${width}px`)
    }

    await page.getByTestId('channel-telegram-disconnect').click()
    await page.getByTestId('channel-telegram-state').getByText('Not connected').waitFor()

    await page.getByTestId('settings-panel-menu-whatsapp').click()
    await page.getByTestId('channel-whatsapp-state').getByText('Not connected').waitFor()
    await page.getByTestId('channel-whatsapp-systemUserAccessToken').fill('EAAG-token')
    await page.getByTestId('channel-whatsapp-phoneNumberId').fill('106540352242922')
    await page.getByTestId('channel-whatsapp-connect').click()
    await page
      .getByTestId('channel-whatsapp-error')
      .getByText('WhatsApp is not available on your plan. Please upgrade your plan.')
      .waitFor()
  }).timeout(600_000)
})
