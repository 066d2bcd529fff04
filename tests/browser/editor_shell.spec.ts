import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import Workflow from '#models/workflow'
import { CreateBot } from '#actions/bots/create_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * What both editors share (docs/editor.md): connecting with the keyboard only, and the
 * notice of a draft saved elsewhere meanwhile (another tab, the copilot).
 */

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    const node = element?.closest('[data-block-id], [data-node-id]') as HTMLElement | null
    return {
      testId: element?.getAttribute('data-testid') ?? null,
      owner: node?.dataset.blockId ?? node?.dataset.nodeId ?? null,
    }
  })

/** Presses Tab, as a keyboard user does, until the output dot of `owner` has the focus. */
async function tabTo(page: Page, testId: string, owner: string) {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab')
    const now = await focused(page)
    if (now.testId === testId && now.owner === owner) return
  }
  throw new Error(`Tab never reached ${testId} of ${owner}`)
}

/** The option the listbox announces as active (aria-activedescendant). */
const activeOption = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector('[data-testid="connect-targets"]')
    const id = list?.getAttribute('aria-activedescendant')
    const option = id ? document.getElementById(id) : null
    return option
      ? { text: option.textContent, selected: option.getAttribute('aria-selected') }
      : null
  })

async function seedBot(email: string) {
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const bot = await new CreateBot().handle(user, workspace, { name: 'Keys' })
  const stored = await Bot.findOrFail(bot.id)
  stored.groups = [
    {
      id: 'g1',
      title: 'Welcome',
      graphCoordinates: { x: 320, y: 0 },
      blocks: [{ id: 'b1', type: 'text', content: {} }],
    },
    {
      id: 'g2',
      title: 'Second',
      graphCoordinates: { x: 760, y: -120 },
      blocks: [{ id: 'c1', type: 'text', content: {} }],
    },
    {
      id: 'g3',
      title: 'Third',
      graphCoordinates: { x: 760, y: 160 },
      blocks: [{ id: 'd1', type: 'text', content: {} }],
    },
  ] as any
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  await stored.save()
  return { user, workspace, bot: stored }
}

async function seedWorkflow(email: string) {
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Keys' })
  workflow.merge({
    blocks: [
      { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
      { id: 'http', type: 'workflow-http-request', graphCoordinates: { x: 340, y: -100 } },
      { id: 'mail', type: 'send-email', graphCoordinates: { x: 340, y: 120 } },
    ],
    edges: [],
  })
  await workflow.save()
  return { user, workspace, workflow }
}

test.group('Editors: keyboard connections and drafts saved elsewhere', () => {
  test('bot editor: a connection made with the keyboard only; Escape gives up', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('keys-bot')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot } = await seedBot(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="group-node"][data-group-id="g3"]').waitFor()

    await tabTo(page, 'block-handle', 'b1')
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup')),
      'listbox'
    )

    // Escape gives up: no edge, and the focus is back on the dot.
    await page.keyboard.press('Enter')
    await page.getByTestId('connect-targets').waitFor()
    assert.deepEqual(await activeOption(page), { text: 'Second', selected: 'true' })
    await page.keyboard.press('Escape')
    await page.getByTestId('connect-targets').waitFor({ state: 'detached' })
    assert.deepEqual(await focused(page), { testId: 'block-handle', owner: 'b1' })
    assert.equal(await page.locator('.react-flow__edge').count(), 0)

    // Enter, the arrow to the second group offered (its own group is not), Enter.
    await page.keyboard.press('Enter')
    assert.deepEqual(await page.getByTestId('connect-target').allTextContents(), [
      'Second',
      'Third',
    ])
    await page.keyboard.press('ArrowDown')
    assert.deepEqual(await activeOption(page), { text: 'Third', selected: 'true' })
    // The canvas outlines the group being pointed at.
    assert.include(
      (await page.locator('.react-flow__node[data-id="g3"]').getAttribute('class')) ?? '',
      'ring-4'
    )
    await page.keyboard.press('Enter')
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 1, 'the edge')
    assert.deepEqual(await focused(page), { testId: 'block-handle', owner: 'b1' })

    // The start event's dot works the same way: Tab (backwards) to it, Enter, Tab, Enter.
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Shift+Tab')
      if ((await focused(page)).testId === 'event-handle') break
    }
    assert.equal((await focused(page)).testId, 'event-handle')
    await page.keyboard.press('Enter')
    assert.deepEqual(await activeOption(page), { text: 'Welcome', selected: 'true' })
    await page.keyboard.press('Enter')
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 2, 'edge 2')

    await hideTab(page)
    await waitFor(async () => (await Bot.findOrFail(bot.id)).edges.length === 2, 'the autosave')
    const saved = await Bot.findOrFail(bot.id)
    assert.sameDeepMembers(
      saved.edges.map((edge) => ({ from: edge.from, to: edge.to })),
      [
        { from: { blockId: 'b1' }, to: { groupId: 'g3' } },
        { from: { eventId: saved.events[0].id }, to: { groupId: 'g1' } },
      ] as any
    )
  })

  test('workflow editor: a connection made with the keyboard only, to nodes that can take it', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('keys-wf')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { workflow } = await seedWorkflow(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()

    await tabTo(page, 'node-handle-out', 'http')
    await page.keyboard.press('Enter')
    // The trigger takes no input and a node does not connect to itself.
    assert.deepEqual(await page.getByTestId('connect-target').count(), 1)
    assert.equal(await page.getByTestId('connect-target').getAttribute('data-node-id'), 'mail')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 1, 'the edge')

    await tabTo(page, 'node-handle-out', 'trigger')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    // Tab stops at the last option; Home goes back to the first.
    assert.equal((await activeOption(page))?.selected, 'true')
    await page.keyboard.press('Home')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 2, 'edge 2')

    await hideTab(page)
    await waitFor(
      async () => (await Workflow.findOrFail(workflow.id)).edges.length === 2,
      'the autosave'
    )
    const saved = await Workflow.findOrFail(workflow.id)
    assert.sameDeepMembers(
      saved.edges.map((edge) => `${edge.from.blockId}>${edge.to.blockId}`),
      ['http>mail', 'trigger>http']
    )
  })

  test('bot editor: a draft saved elsewhere meanwhile (the copilot) merges with the edit', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('conflict-bot')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { bot, user, workspace } = await seedBot(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.locator('[data-testid="group-node"][data-group-id="g3"]').waitFor()

    // Joined the shared draft: the write elsewhere is merged into it.
    await page.getByTestId('coedit-live').waitFor({ state: 'attached', timeout: 30_000 })
    // The copilot (or an API client) saves the draft after this page loaded it.
    const elsewhere = await Bot.findOrFail(bot.id)
    await new UpdateBot().handle(
      elsewhere,
      { groups: elsewhere.groups.map((g) => (g.id === 'g2' ? { ...g, title: 'Theirs' } : g)) },
      { user, workspace }
    )

    await tabTo(page, 'block-handle', 'b1')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    // Both are kept (docs/editor.md "Editing together"): no notice, nothing to choose.
    await waitFor(async () => {
      const stored = await Bot.findOrFail(bot.id)
      return (
        stored.edges.length === 1 && stored.groups.find((g) => g.id === 'g2')!.title === 'Theirs'
      )
    }, 'both changes in the draft')
    await waitFor(
      async () =>
        (await page.locator('[data-group-id="g2"] [data-testid="group-title"]').inputValue()) ===
        'Theirs',
      'their title on the canvas'
    )
    assert.equal(await page.locator('.react-flow__edge').count(), 1)
    assert.equal(await page.getByTestId('conflict-notice').count(), 0)
  })

  test('workflow editor: a draft saved elsewhere meanwhile (the copilot) merges with the edit', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('conflict-wf')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const { workflow, user, workspace } = await seedWorkflow(email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await page.locator('[data-testid="workflow-node"][data-node-id="mail"]').waitFor()
    await page.getByTestId('coedit-live').waitFor({ state: 'attached', timeout: 30_000 })

    const elsewhere = await Workflow.findOrFail(workflow.id)
    await new UpdateWorkflow().handle(user, workspace, elsewhere, {
      name: 'Renamed by the assistant',
      updatedBy: 'assistant',
    })

    await tabTo(page, 'node-handle-out', 'http')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await waitFor(async () => {
      const stored = await Workflow.findOrFail(workflow.id)
      return stored.edges.length === 1 && stored.name === 'Renamed by the assistant'
    }, 'both changes in the draft')
    await waitFor(
      async () => (await page.getByTestId('workflow-name').inputValue()).includes('Renamed'),
      'their name in the header'
    )
    assert.equal(await page.locator('.react-flow__edge').count(), 1)
    assert.equal(await page.getByTestId('conflict-notice').count(), 0)
  })
})
