import { test } from '@japa/runner'
import type { Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import WorkspaceMember from '#models/workspace_member'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { signInWithLink } from '#tests/browser/helpers'
import { waitFor } from '#tests/browser/workflow_helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/**
 * The copilot in a shared draft (docs/editor.md "The copilot in a shared draft"): two
 * builders in browser contexts of their own on one bot; one asks the copilot for a change
 * while the other types. The change shows once in both editors with a Copilot avatar, the
 * typing survives, the asker's Ctrl+Z undoes her own edit and not the copilot's, and the
 * reply's Undo takes back the copilot's change alone. The model is the OpenAI stand-in.
 */

const KEY = 'sk-coedit-copilot'
const GREETING = 'Hi from the copilot'

/** First round: a text bubble in a group of its own; then the answer. */
function addGroupScript(body: any) {
  const messages: any[] = body.messages
  const lastUser = messages.map((m) => m.role).lastIndexOf('user')
  if (messages.slice(lastUser + 1).some((m) => m.role === 'tool')) {
    return { content: 'I added a greeting.' }
  }
  return {
    tool_calls: [
      {
        id: 'call_add',
        type: 'function',
        function: {
          name: 'add_block',
          arguments: JSON.stringify({
            type: 'text',
            groupTitle: 'From the copilot',
            options: { richText: [{ type: 'p', children: [{ text: GREETING }] }] },
          }),
        },
      },
    ],
  }
}

async function seedBot(user: User) {
  const workspace = await firstWorkspaceOf(user)
  const bot = await new CreateBot().handle(user, workspace, { name: 'Together' })
  const stored = await Bot.findOrFail(bot.id)
  const bubble = (id: string, text: string) => ({
    id,
    type: 'text',
    content: { plainText: text, richText: [{ type: 'p', children: [{ text }] }] },
  })
  stored.groups = [
    {
      id: 'g1',
      title: 'Welcome',
      graphCoordinates: { x: 320, y: 0 },
      blocks: [bubble('b1', 'Hello')],
    },
    {
      id: 'g2',
      title: 'Second',
      graphCoordinates: { x: 760, y: -120 },
      blocks: [bubble('c1', 'Two')],
    },
  ] as never
  stored.edges = []
  stored.events = stored.events.map(({ outgoingEdgeId: _, ...event }) => event)
  await stored.save()
  return { workspace, bot: stored }
}

async function openEditor(page: Page, botId: string) {
  await page.goto(`/bots/${botId}/edit`)
  await page.locator('[data-testid="group-node"][data-group-id="g2"]').waitFor()
  await page.getByTestId('coedit-live').waitFor({ state: 'attached', timeout: 30_000 })
}

async function openBubble(page: Page, blockId: string) {
  await page.locator(`[data-block-id="${blockId}"]`).click()
  const input = page.getByTestId('text-bubble-input')
  await input.waitFor()
  await input.click()
  await page.keyboard.press('Control+End')
  return input
}

const greetings = (page: Page) => page.locator('[data-testid="block-item"]', { hasText: GREETING })

async function bubbleText(botId: string, blockId: string) {
  const bot = await Bot.findOrFail(botId)
  for (const group of bot.groups) {
    const block = group.blocks.find((candidate) => candidate.id === blockId)
    if (block) return (block.content as { plainText?: string } | undefined)?.plainText
  }
  return undefined
}

async function storedGreetings(botId: string) {
  const bot = await Bot.findOrFail(botId)
  return bot.groups.filter((group) => group.title === 'From the copilot').length
}

test.group('Editing together: the copilot', () => {
  test('its change arrives once in both editors, marked as the copilot’s, with its own undo', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, script: addGroupScript })
    cleanup(() => standIn.close())
    const ann = await visit('/health')
    ann.setDefaultTimeout(120_000)
    ann.setDefaultNavigationTimeout(120_000)
    await ann.setViewportSize({ width: 1440, height: 900 })
    const email = uniqueEmail('coedit-copilot-ann')
    await signInWithLink(ann, email)
    const annUser = await User.findByOrFail('email', email)
    annUser.name = 'Ann'
    await annUser.save()
    await setUserPlan(annUser, 'UNLIMITED')
    const { workspace, bot } = await seedBot(annUser)
    await new CreateCredential().handle(annUser, workspace, {
      type: 'openai',
      name: 'Stand-in account',
      data: { apiKey: KEY, baseUrl: standIn.baseUrl },
    })

    const bobContext = await ann
      .context()
      .browser()!
      .newContext({
        baseURL: `http://127.0.0.1:${process.env.PORT}`,
        viewport: { width: 1440, height: 900 },
      })
    cleanup(() => bobContext.close())
    const bob = await bobContext.newPage()
    bob.setDefaultTimeout(120_000)
    const bobEmail = uniqueEmail('coedit-copilot-bob')
    await signInWithLink(bob, bobEmail)
    const bobUser = await User.findByOrFail('email', bobEmail)
    bobUser.name = 'Bob'
    await bobUser.save()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: bobUser.id, role: 'MEMBER' })

    await openEditor(ann, bot.id)
    await openEditor(bob, bot.id)
    await ann.locator('[data-testid="coedit-peer"][data-user-name="Bob"]').waitFor()

    // Ann's own edit first: what her Ctrl+Z will take back.
    const annInput = await openBubble(ann, 'b1')
    await annInput.pressSequentially(' Ann', { delay: 40 })
    await bob.locator('[data-block-id="b1"]', { hasText: 'Hello Ann' }).waitFor()

    // Ann asks the copilot while Bob types in another bubble (a click on the canvas closes
    // her bubble's settings, which cover the copilot's button).
    const pane = (await ann.locator('.react-flow__pane').boundingBox())!
    const empty = { x: pane.x + pane.width * 0.45, y: pane.y + pane.height - 60 }
    await ann.mouse.click(empty.x, empty.y)
    await ann.getByTestId('block-settings').waitFor({ state: 'detached' })
    await ann.getByTestId('copilot-open').click()
    const panel = ann.getByTestId('copilot-panel')
    await panel.getByTestId('copilot-assistant-message').first().waitFor()
    await panel.getByTestId('copilot-input').click()
    await ann.keyboard.type('Greet the visitors')
    const bobInput = await openBubble(bob, 'c1')
    const typing = bobInput.pressSequentially(' by Bob', { delay: 120 })
    await ann.keyboard.press('Enter')
    await panel.getByText('I added a greeting.').waitFor()
    await typing

    // Once in both editors, with the copilot among the people in the header.
    for (const page of [ann, bob]) {
      await greetings(page).first().waitFor()
      await page.locator('[data-testid="coedit-peer"][data-copilot="true"]').waitFor()
    }
    // Bob's typing survived, in both editors.
    await waitFor(async () => (await bobInput.inputValue()) === 'Two by Bob', 'Bob’s text kept')
    await ann.locator('[data-block-id="c1"]', { hasText: 'Two by Bob' }).waitFor()
    await waitFor(
      async () =>
        (await storedGreetings(bot.id)) === 1 && (await bubbleText(bot.id, 'c1')) === 'Two by Bob',
      'the merged draft: the copilot’s group once and Bob’s text'
    )
    for (const page of [ann, bob]) assert.equal(await greetings(page).count(), 1)
    await ann.screenshot({ path: 'tmp/screenshots/coedit-copilot.png' })

    // Ann's Ctrl+Z undoes her typing, not the copilot's change.
    await ann.mouse.click(empty.x, empty.y)
    for (let press = 0; press < 4; press++) {
      if ((await bubbleText(bot.id, 'b1')) === 'Hello') break
      await ann.keyboard.press('Control+z')
      await ann.waitForTimeout(600)
    }
    await waitFor(async () => (await bubbleText(bot.id, 'b1')) === 'Hello', 'her edit undone')
    await bob
      .locator('[data-block-id="b1"]', { hasText: 'Hello Ann' })
      .waitFor({ state: 'detached' })
    assert.equal(await storedGreetings(bot.id), 1)
    for (const page of [ann, bob]) assert.equal(await greetings(page).count(), 1)

    // The reply's Undo takes back the copilot's change alone, for both.
    await panel.getByTestId('copilot-version-card').getByTestId('copilot-undo').click()
    for (const page of [ann, bob]) {
      await waitFor(async () => (await greetings(page).count()) === 0, 'the copilot’s group gone')
    }
    await waitFor(async () => (await storedGreetings(bot.id)) === 0, 'gone from the draft')
    assert.equal(await bubbleText(bot.id, 'c1'), 'Two by Bob')
    assert.equal(await bubbleText(bot.id, 'b1'), 'Hello')
  }).timeout(420_000)
})
