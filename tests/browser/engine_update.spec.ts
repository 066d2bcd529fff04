import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import Bot from '#models/bot'
import User from '#models/user'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

test.group('Editor: engine update warning in the browser', () => {
  test('an older bot shows a dismissible warning; a v6 bot does not', async ({ visit, assert }) => {
    const email = uniqueEmail('engine')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    // The FREE plan allows one bot: the old bot below, then a new one from the dashboard.
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const fixture = JSON.parse(
      await readFile(new URL('../fixtures/chat/legacy_v5.json', import.meta.url), 'utf8')
    ).bot
    const old = await Bot.create({
      workspaceId: workspace.id,
      createdBy: user.id,
      name: 'Old bot',
      version: '5',
      groups: fixture.groups,
      events: fixture.events ?? [],
      edges: fixture.edges,
      variables: fixture.variables,
      theme: {},
      settings: {},
      isArchived: false,
      isClosed: false,
    } as any)

    await page.goto(`/bots/${old.id}/edit`)
    const warning = page.getByTestId('engine-update-warning')
    await warning.getByText('engine version 5').waitFor()
    await page.getByTestId('editor-canvas').waitFor()
    // Keyboard: the dismiss button is reachable and works with Enter.
    await page.getByTestId('engine-update-dismiss').focus()
    await page.keyboard.press('Enter')
    await warning.waitFor({ state: 'detached' })

    await page.goto('/bots')
    await page.getByTestId('create-bot').first().click()
    await page.getByTestId('create-from-scratch').click()
    await page.getByTestId('create-bot-submit').click()
    await page.waitForURL(/\/bots\/[a-z0-9]+\/edit$/)
    await page.getByTestId('editor-canvas').waitFor()
    assert.equal(await page.getByTestId('engine-update-warning').count(), 0)
  })
})
