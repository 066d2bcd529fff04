import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import type { Page } from 'playwright'
import env from '#start/env'
import User from '#models/user'
import { createUser, firstWorkspaceOf, publishThroughApi, uniqueEmail } from '#tests/helpers'
import { signInThroughMailbox } from './helpers.js'

/**
 * Onboarding as a new user meets it (docs/onboarding.md): the main tour across the bots
 * and workflows pages, the workflow editor's tour, the getting-started checklist and the
 * support chat bubble of paid workspaces.
 */

async function waitForFlag(email: string, flag: string) {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const user = await User.findByOrFail('email', email)
    if (user.tourStatus?.[flag as keyof typeof user.tourStatus]) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

const card = (page: Page) => page.getByTestId('tour-card')

test.group('Guided tours', () => {
  test('a new user gets the main tour; Next and Previous cross pages; Skip is remembered', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('tour')
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    // No card animation: a click lands on the card it was meant for on a loaded machine.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await signInThroughMailbox(page, email, { onboarding: true })

    await card(page).getByText('Create your first bot').waitFor()
    assert.equal(await card(page).getByText('1 of 6').count(), 1)
    // The step points at the real button.
    assert.isTrue(
      await page
        .getByTestId('create-bot')
        .first()
        .evaluate((node) => node.classList.contains('driver-active-element'))
    )
    await page.getByTestId('tour-next').click()
    await card(page).getByText('Automations live in Workflows').waitFor()

    await page.getByTestId('tour-next').click()
    await page.waitForURL(/\/workflows$/)
    await card(page).getByText('Create a workflow').waitFor()
    assert.equal(await card(page).getByText('3 of 6').count(), 1)

    await page.getByTestId('tour-previous').click()
    await page.waitForURL(/\/bots$/)
    await card(page).getByText('Automations live in Workflows').waitFor()

    await page.getByTestId('tour-skip').click()
    await card(page).waitFor({ state: 'detached' })
    assert.isTrue(await waitForFlag(email, 'dashboardTourCompleted'))

    await page.reload()
    await page.getByTestId('create-bot').first().waitFor()
    await page.waitForTimeout(800)
    assert.equal(await card(page).count(), 0)

    // The help menu starts it again on demand.
    await page.getByTestId('help-menu').click()
    await page.getByTestId('start-tour-mainTour').click()
    await card(page).getByText('Create your first bot').waitFor()
    await page.keyboard.press('Escape')
    await card(page).waitFor({ state: 'detached' })
  }).timeout(300_000)

  test('the workflow tour ends with Finish; the checklist stays off the editor', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('wftour')
    const user = await createUser({ email })
    user.tourStatus = { dashboardTourCompleted: true }
    await user.save()
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    // No card animation: a click lands on the card it was meant for on a loaded machine.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await signInThroughMailbox(page, email, { onboarding: true })

    // The checklist on the dashboard, read from the workspace.
    await page.getByTestId('checklist-open').click()
    await page.getByTestId('checklist-items').waitFor()
    assert.isNull(await page.getByTestId('checklist-item-createWorkflow').getAttribute('data-done'))
    assert.equal(await card(page).count(), 0)

    await page.getByTestId('nav-workflows').click()
    await page.waitForURL(/\/workflows$/)
    await page.getByTestId('create-workflow').first().click()
    await page.waitForURL(/\/workflows\/[^/]+$/)

    await card(page).getByText('Nodes').waitFor()
    assert.equal(await page.getByTestId('onboarding-checklist').count(), 0)
    for (const title of ['The canvas', 'Test run', 'Publish and switch on', 'Need this again?']) {
      await page.getByTestId('tour-next').click()
      await card(page).getByText(title).waitFor()
    }
    await page.getByTestId('tour-finish').click()
    await card(page).waitFor({ state: 'detached' })
    assert.isTrue(await waitForFlag(email, 'workflowTourCompleted'))

    await page.getByTestId('workflow-back').click()
    await page.waitForURL(/\/workflows$/)
    await page.getByTestId('checklist-open').click()
    await page.getByTestId('checklist-item-createWorkflow').waitFor()
    assert.equal(
      await page.getByTestId('checklist-item-createWorkflow').getAttribute('data-done'),
      'true'
    )
    await page.getByTestId('checklist-dismiss').click()
    await page.getByTestId('onboarding-checklist').waitFor({ state: 'detached' })
    await page.reload()
    await page.getByTestId('create-workflow').first().waitFor()
    assert.equal(await page.getByTestId('onboarding-checklist').count(), 0)
  }).timeout(300_000)

  test('on a phone the editor tour does not start by itself', async ({ visit, assert }) => {
    const email = uniqueEmail('phonetour')
    const user = await createUser({ email })
    user.tourStatus = { dashboardTourCompleted: true }
    await user.save()
    const page = await visit('/signin')
    await page.setViewportSize({ width: 390, height: 844 })
    await signInThroughMailbox(page, email, { onboarding: true })
    await page.goto('/workflows')
    await page.getByTestId('create-workflow').first().click()
    await page.waitForURL(/\/workflows\/[^/]+$/)
    await page.getByTestId('palette-open').waitFor()
    await page.waitForTimeout(800)
    assert.equal(await card(page).count(), 0)
    // The palette still opens: nothing covers the editor.
    await page.getByTestId('palette-open').click()
    await page.getByTestId('palette-search').waitFor()
  }).timeout(300_000)
})

/** A published bot greeting with the prefilled variables, as the support bot would. */
function publishSupportBot(client: ApiClient) {
  const text = (value: string) => ({ type: 'p', children: [{ text: value }] })
  const bot = {
    version: '6',
    name: 'Support',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          {
            id: 't1',
            type: 'text',
            content: { richText: [text('Hello {{firstName}}, on the {{planLabel}} plan')] },
          },
          {
            id: 't2',
            type: 'text',
            content: { richText: [text('Writing to {{email}} about {{workspaceId}}')] },
          },
          { id: 'ask', type: 'text input', options: {} },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [
      'userId',
      'firstName',
      'email',
      'botId',
      'avatarUrl',
      'planLabel',
      'workspaceId',
    ].map((name) => ({ id: `v_${name}`, name })),
    theme: {},
    // The public page reads the embed's variables when the bot lets it (docs/onboarding.md).
    settings: { general: { isInputPrefillEnabled: true } },
  }
  return publishThroughApi(client, bot)
}

test.group('Support widget', () => {
  test('a paid workspace gets the bubble from the viewer host, with the prefill', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const publicId = await publishSupportBot(client)
    const email = uniqueEmail('support')
    const user = await createUser({ email, name: 'Grace Brewster Hopper' })
    const workspace = await firstWorkspaceOf(user)
    workspace.plan = 'STANDARD'
    await workspace.save()

    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    // Another host name of the same server stands for the separate bot-viewer host.
    const app = new URL(page.url())
    const viewer = `${app.protocol}//${app.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1'}:${app.port}`
    const before = {
      id: env.get('SUPPORT_BOT_PUBLIC_ID'),
      url: env.get('SUPPORT_VIEWER_URL'),
    }
    env.set('SUPPORT_BOT_PUBLIC_ID', publicId)
    env.set('SUPPORT_VIEWER_URL', viewer)
    cleanup(() => {
      // process.env keeps strings: '' is unset
      env.set('SUPPORT_BOT_PUBLIC_ID', before.id ?? '')
      env.set('SUPPORT_VIEWER_URL', (before.url ?? '') as any)
    })

    await signInThroughMailbox(page, email)
    const bubble = page.locator('.flowcraft-button')
    await bubble.waitFor()
    assert.equal(
      await page.locator('script[data-support]').getAttribute('src'),
      `${viewer}/embed.js`
    )
    await bubble.click()
    const chat = page.frameLocator('.flowcraft-panel iframe')
    await chat.getByText('Hello Grace, on the Standard plan').waitFor()
    await chat.getByText(`Writing to ${email} about ${workspace.id}`).waitFor()
    assert.isTrue(
      (await page.locator('.flowcraft-panel iframe').getAttribute('src'))!.startsWith(
        `${viewer}/${publicId}?`
      )
    )

    // The bubble stays across pages, and is gone on Free.
    await page.getByTestId('nav-workflows').click()
    await page.waitForURL(/\/workflows$/)
    assert.equal(await page.locator('.flowcraft-button').count(), 1)
    workspace.plan = 'FREE'
    await workspace.save()
    await page.reload()
    await page.getByTestId('create-workflow').first().waitFor()
    await page.waitForTimeout(500)
    assert.equal(await page.locator('.flowcraft-button').count(), 0)
  }).timeout(300_000)
})
