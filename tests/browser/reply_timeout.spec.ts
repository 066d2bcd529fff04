import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { hideTab, signInWithLink } from '#tests/browser/helpers'
import { drag, waitFor } from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * A reply timeout set up as a builder does it (docs/bots.md, "Reply timeout"): switched on
 * in the input's settings, set to 2 seconds, its "No reply" exit connected by a real
 * pointer drag; then the preview leaves the question unanswered and, after a real 2 s, the
 * "No reply" path's bubble appears.
 */

function text(id: string, value: string) {
  return { id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } }
}

test.group('Reply timeout in the editor and the viewer', () => {
  test('set, connected by a drag, and taken after 2 s in the preview', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('reply-timeout')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Reply timeout',
    })
    const bot = await Bot.findOrFail(created.id)
    bot.groups = [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [
          text('ask', 'Your name?'),
          { id: 'name', type: 'text input', options: { labels: { placeholder: 'Type here' } } },
        ],
      },
      {
        id: 'g2',
        title: 'Nudge',
        graphCoordinates: { x: 760, y: 220 },
        blocks: [text('nudge', 'Still there?')],
      },
    ] as any
    const eventId = bot.events[0].id
    bot.events = bot.events.map((event) => ({ ...event, outgoingEdgeId: 'e_start' }))
    bot.edges = [{ id: 'e_start', from: { eventId }, to: { groupId: 'g1' } }] as any
    await bot.save()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const group = (id: string) => page.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    await group('g2').waitFor()
    const input = group('g1').locator('[data-testid="block-item"][data-block-id="name"]')

    // No timeout yet: no "No reply" exit.
    assert.equal(await input.getByTestId('timeout-handle').count(), 0)
    await input.click()
    const form = page.getByTestId('block-settings')
    await form.waitFor()
    await form.getByTestId('reply-timeout-switch').click()
    // On at a minute; the builder makes it 2 seconds.
    await form.getByTestId('reply-timeout-amount').fill('2')
    await form.getByTestId('reply-timeout-unit').click()
    await page.getByRole('option', { name: 'Seconds' }).click()
    await form.getByTestId('block-settings-close').click()

    await input.getByTestId('timeout-handle').waitFor()
    assert.equal(await input.getByTestId('timeout-label').innerText(), 'No reply after 2 s')
    const edges = page.locator('.react-flow__edge')
    await drag(page, input.getByTestId('timeout-handle'), group('g2'))
    await waitFor(async () => (await edges.count()) === 2, 'the edge of "No reply"')

    await hideTab(page)
    await waitFor(
      async () => (await Bot.findOrFail(bot.id)).edges.length === 2,
      'the autosave of the edge'
    )
    const saved = await Bot.findOrFail(bot.id)
    const block = saved.groups[0].blocks.find((candidate) => candidate.id === 'name')!
    assert.equal(block.timeout?.seconds, 2)
    const edge = saved.edges.find((candidate) => candidate.id === block.timeout?.outgoingEdgeId)
    assert.deepEqual(edge?.from, { blockId: 'name', timeout: true })
    assert.equal(edge?.to.groupId, 'g2')

    // The preview asks and nobody answers: after 2 s the "No reply" path speaks.
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    await panel.getByText('Your name?').waitFor()
    const asked = Date.now()
    await panel.getByText('Still there?').waitFor({ timeout: 30_000 })
    assert.isAtLeast(Date.now() - asked, 1500, 'not before the 2 s (less the render time)')
  }).timeout(120_000)
})
