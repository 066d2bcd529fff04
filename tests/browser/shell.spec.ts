import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { signInThroughMailbox } from '#tests/browser/helpers'
import User from '#models/user'
import Workspace from '#models/workspace'
import WorkspaceInvitation from '#models/workspace_invitation'
import { setUserPlan, uniqueEmail } from '#tests/helpers'
import { workspacesOf } from '#services/workspace_access'

const screenshots = app.makePath('docs/screenshots')

test.group('App shell in the browser', () => {
  test('sign in through the dev mailbox link', async ({ visit, assert }) => {
    const page = await visit('/bots')
    await page.waitForURL(/\/signin\?redirectPath=%2Fbots/)
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.screenshot({ path: `${screenshots}/signin.png` })

    const email = uniqueEmail('browser')
    await signInThroughMailbox(page, email)
    await page.getByTestId('nav-bots').waitFor()
    assert.isNotNull(await User.findBy('email', email))
    await page.screenshot({ path: `${screenshots}/dashboard.png` })

    await page.getByTestId('nav-workflows').click()
    await page.waitForURL(/\/workflows$/)
    await page.getByTestId('nav-vectors').click()
    await page.waitForURL(/\/vectors$/)

    await page.getByTestId('user-menu').click()
    await page.getByTestId('logout').click()
    await page.waitForURL(/\/signin$/)
    await page.getByText('Logged out successfully').waitFor()
  })

  test('create and switch workspaces', async ({ visit, assert }) => {
    const email = uniqueEmail('switcher')
    const page = await visit('/signin')
    await signInThroughMailbox(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'STANDARD')
    // The page shows the limits it was loaded with (FREE: one workspace, the item disabled).
    await page.reload()

    await page.getByTestId('workspace-switcher').click()
    await page.getByTestId('new-workspace').click()
    await page.getByTestId('new-workspace-name').fill('Marketing team')
    await page.getByTestId('new-workspace-submit').click()
    await page.getByTestId('workspace-switcher').getByText('Marketing team').waitFor()

    const names = (await workspacesOf(user)).map((w) => w.name)
    const first = `${email.split('@')[0]}'s workspace`
    assert.deepEqual(names, [first, 'Marketing team'])

    await page.getByTestId('workspace-switcher').click()
    await page.getByTestId('workspace-option').filter({ hasText: first }).click()
    await page.waitForURL(/\/bots$/)
    await page.getByTestId('workspace-switcher').getByText(first).waitFor()
    const stored = await page.evaluate(() => localStorage.getItem('currentWorkspaceId'))
    const mine = await Workspace.query()
      .where('name', first)
      .where('created_by', user.id)
      .firstOrFail()
    assert.equal(stored, mine.id)
  })

  test('invite a member', async ({ visit, assert }) => {
    const email = uniqueEmail('inviter')
    const page = await visit('/signin')
    await signInThroughMailbox(page, email)
    await page.goto('/settings/workspace/member')
    // An empty e-mail shows its message next to the field.
    await page.getByTestId('invite-submit').click()
    await page.getByText('Please enter an email address to send the invitation.').first().waitFor()

    const invitee = uniqueEmail('invitee')
    await page.getByTestId('invite-email').fill(invitee)
    await page.getByTestId('invite-submit').click()
    await page.getByTestId('invitation-row').filter({ hasText: invitee }).waitFor()
    assert.isNotNull(await WorkspaceInvitation.findBy('email', invitee))

    // FREE has two seats, the owner's and this invitation's: the form now says so, disabled.
    await page.getByTestId('plan-limit-multipleUser').waitFor()
    assert.isTrue(await page.getByTestId('invite-submit').isDisabled())
  })

  test('change language and appearance', async ({ visit, assert }) => {
    const email = uniqueEmail('prefs')
    const page = await visit('/signin')
    await signInThroughMailbox(page, email)
    await page.goto('/settings/account/preferences')

    await page.getByTestId('appearance-dark').click()
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await page.getByTestId('language-select').click()
    await page.getByRole('option', { name: 'Français' }).click()
    // The interface switches at once, before the save.
    await page.getByTestId('nav-settings').getByText('Paramètres').waitFor()

    // Saved after the 1000 ms debounce.
    const user = await User.findByOrFail('email', email)
    for (let i = 0; i < 40; i++) {
      await user.refresh()
      if (user.preferredLanguage === 'fr' && user.preferredAppAppearance === 'dark') break
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.equal(user.preferredLanguage, 'fr')
    assert.equal(user.preferredAppAppearance, 'dark')

    // After a reload the page is French and dark from the first paint.
    await page.reload()
    assert.isTrue(await page.evaluate(() => document.documentElement.classList.contains('dark')))
    // The server renders the user's language into <html lang> (no wait for the client).
    const lang = await page.evaluate(() => document.documentElement.lang)
    assert.equal(lang, 'fr')
    await page.getByTestId('nav-settings').getByText('Paramètres').waitFor()
    await page.screenshot({ path: `${screenshots}/settings-dark-fr.png` })
  })
})
