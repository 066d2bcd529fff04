import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { setUserPlan, uniqueEmail } from '#tests/helpers'

test.group('Template gallery in the browser', () => {
  test('filter the gallery, chat with a template, then create a bot from it', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('gallery')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    await page.reload()

    await page.getByTestId('create-bot').first().click()
    await page.getByTestId('create-from-template').click()
    const gallery = page.getByTestId('template-gallery')
    await gallery.getByTestId('template-lead-generation').waitFor()

    // The filter keeps one category's templates.
    const filter = gallery.getByTestId('template-filter')
    await filter.locator('[data-category="education-knowledge"]').click()
    assert.equal(
      await filter.locator('[data-category="education-knowledge"]').getAttribute('aria-pressed'),
      'true'
    )
    await gallery.getByTestId('template-lead-generation').waitFor({ state: 'detached' })
    await gallery.getByTestId('template-faq').waitFor()

    // Keyboard: the card takes focus and Enter selects it.
    await gallery.getByTestId('template-quiz').focus()
    await page.keyboard.press('Enter')
    assert.equal(await gallery.getByTestId('template-quiz').getAttribute('aria-pressed'), 'true')

    const preview = gallery.getByTestId('template-preview')
    await preview.getByText('What is your name, astronaut?').waitFor()
    await preview.getByRole('textbox').fill('Ada')
    await preview.getByRole('button', { name: 'Send' }).click()
    await preview.getByRole('button', { name: 'Mercury' }).click()
    await preview.getByText('Correct, it is Mercury.').waitFor()
    // Trying a template saves nothing.
    const before = await Bot.query()
      .whereIn('workspace_id', (q) =>
        q.from('workspace_members').select('workspace_id').where('user_id', user.id)
      )
      .count('* as n')
    assert.equal(Number(before[0].$extras.n), 0)

    await gallery.getByTestId('use-template').click()
    await page.waitForURL(/\/bots\/[a-z0-9]+\/edit$/)
    await page.getByTestId('editor-canvas').waitFor()
    await page.getByTestId('group-node').filter({ hasText: 'Question 2' }).first().waitFor()
    const created = await Bot.query()
      .whereIn('workspace_id', (q) =>
        q.from('workspace_members').select('workspace_id').where('user_id', user.id)
      )
      .firstOrFail()
    assert.equal(created.name, 'Space quiz')
  })
})
