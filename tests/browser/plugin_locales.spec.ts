import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/*
 * Plugins ship their texts per language (plugins/<id>/locales/<lang>.json): a builder who
 * reads French sees the block names of the palette and the labels of a block's settings in
 * French, not the English of the manifests (issue 28).
 */
test.group('Plugin texts in the builder’s language', () => {
  test('a French builder sees French block names and field labels in the bot editor', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('pluginfr')
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    user.preferredLanguage = 'fr'
    await user.save()
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Français',
    })
    const bot = await Bot.findOrFail(created.id)
    bot.groups = [
      {
        id: 'g1',
        title: 'Groupe #1',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [{ id: 'b1', type: 'text input', options: {} }],
      },
    ] as any
    await bot.save()

    await page.goto(`/bots/${bot.id}/edit`)
    const sidebar = page.getByTestId('blocks-sidebar')
    // The palette: names from each plugin's fr.json.
    await sidebar.getByTestId('sidebar-block-choice-input').getByText('Boutons').waitFor()
    await sidebar
      .getByTestId('sidebar-block-Set-variable')
      .getByText('Définir une variable')
      .waitFor()
    assert.notInclude(await sidebar.innerText(), 'Set variable')

    // A block's settings: its form's labels.
    await page.locator('[data-testid="block-item"][data-block-id="b1"]').click()
    const settings = page.getByTestId('block-settings')
    await settings.getByText('Texte long').waitFor()
    await settings.getByText('Libellés').first().waitFor()
    const text = await settings.innerText()
    assert.notInclude(text, 'Long text')
    assert.notInclude(text, 'Allow attachments')
  }).timeout(180_000)
})
