import { test } from '@japa/runner'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/*
 * A bot above the large-bot threshold (40 groups) opens on its start event and mounts only
 * the groups on screen (canvas_nodes.ts: estimated handles), yet draws the edges leaving
 * the screen and mounts the next groups when the canvas is panned.
 */
test.group('Bot editor / a large bot', () => {
  test('only the groups on screen are mounted; edges to groups off screen are drawn; panning mounts more', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('large')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const bot = await new CreateBot().handle(user, await firstWorkspaceOf(user), { name: 'Large' })
    const stored = await Bot.findOrFail(bot.id)
    stored.groups = Array.from({ length: 60 }, (_, g) => ({
      id: `g${g}`,
      title: `Group #${g + 1}`,
      graphCoordinates: { x: (g % 10) * 420, y: Math.floor(g / 10) * 600 },
      blocks: [0, 1, 2].map((b) => ({
        id: `b${g}x${b}`,
        type: 'text',
        content: { richText: [{ type: 'p', children: [{ text: `Message ${g}.${b}` }] }] },
        ...(b === 2 && g < 59 ? { outgoingEdgeId: `e${g}` } : {}),
      })),
    }))
    stored.edges = [
      { id: 'estart', from: { eventId: stored.events[0].id }, to: { groupId: 'g0' } },
      ...Array.from({ length: 59 }, (_, g) => ({
        id: `e${g}`,
        from: { blockId: `b${g}x2` },
        to: { groupId: `g${g + 1}` },
      })),
    ]
    stored.events = stored.events.map((event) => ({
      ...event,
      graphCoordinates: { x: -300, y: 0 },
      outgoingEdgeId: 'estart',
    }))
    await stored.save()

    await page.setViewportSize({ width: 1280, height: 720 })
    // Counts every group node ever added: React Flow's first render must not mount them all.
    await page.addInitScript(() => {
      const w = window as unknown as { groupsMounted: number }
      w.groupsMounted = 0
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof Element)
              w.groupsMounted += node.matches('[data-testid="group-node"]')
                ? 1
                : node.querySelectorAll('[data-testid="group-node"]').length
      }).observe(document, { childList: true, subtree: true })
    })
    await page.goto(`/bots/${bot.id}/edit`)
    const group = (id: string) => page.locator(`[data-testid="group-node"][data-group-id="${id}"]`)
    await group('g0').waitFor()
    await group('g1').waitFor()
    const mounted = await page.getByTestId('group-node').count()
    assert.isAtMost(mounted, 6, `${mounted} groups mounted`)
    assert.equal(await group('g2').count(), 0)
    const everMounted = await page.evaluate(() => (window as any).groupsMounted as number)
    assert.isAtMost(everMounted, 6, `${everMounted} groups mounted since the page opened`)

    // g1 is on screen and g2 is not: their edge is drawn all the same.
    const edge = page.locator('.react-flow__edge[data-id="e1"] path').first()
    await edge.waitFor()
    assert.match((await edge.getAttribute('d'))!, /^M/)
    // Every mounted group was measured: none is left hidden.
    await waitFor(
      async () =>
        (await page.locator('.react-flow__node[style*="visibility: hidden"]').count()) === 0,
      'the groups on screen to be measured'
    )

    // Panning to the right mounts the next groups.
    const canvas = (await page.getByTestId('editor-canvas').boundingBox())!
    const from = { x: canvas.x + canvas.width - 80, y: canvas.y + canvas.height - 60 }
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(from.x - 700, from.y, { steps: 14 })
    await page.mouse.up()
    await group('g2').waitFor()
    assert.isAtMost(await page.getByTestId('group-node').count(), 8)
  })
})
