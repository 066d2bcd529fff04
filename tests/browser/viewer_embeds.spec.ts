import { test } from '@japa/runner'
import {
  publishFixture,
  publishBot,
  screenshot,
  withoutTyping,
  showOnAnotherSite,
  guest,
  useNewOwner,
} from '#tests/browser/viewer_fixtures'

test.group("Viewer: embeds and the page's events", (group) => {
  group.setup(async () => {
    await useNewOwner()
  })

  test('the embed script: bubble opens the bot in an iframe, standard fills its element', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { publicId } = await publishFixture(client, 'greeting')
    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    const html = `<!doctype html><html><body>
      <div id="inline" style="width: 600px; height: 500px"></div>
      <script src="${origin}/embed.js"></script>
      <script>
        Flowcraft.initStandard({ publicId: ${JSON.stringify(publicId)}, element: '#inline' })
        Flowcraft.initBubble({ publicId: ${JSON.stringify(publicId)} })
      </script></body></html>`
    await showOnAnotherSite(page, html, cleanup)

    const inline = page.frameLocator('#inline iframe')
    await inline.getByText('Hello! What is your name?').waitFor()
    const src = await page.locator('#inline iframe').getAttribute('src')
    assert.equal(src, `${origin}/${publicId}?embedded=1`)

    // The bubble's iframe exists only once opened (loading it starts a chat).
    assert.equal(await page.locator('.flowcraft-panel iframe').count(), 0)
    await page.getByRole('button', { name: 'Open the chat' }).click()
    await page
      .frameLocator('.flowcraft-panel iframe')
      .getByText('Hello! What is your name?')
      .waitFor()
    await screenshot(page, 'embed-bubble')
    await page.evaluate(() => (window as any).Flowcraft.close())
    assert.isTrue(
      await page.locator('.flowcraft-panel').evaluate((node) => (node as HTMLElement).hidden)
    )
  })

  test('the embed script: the popup opens by itself, <flowcraft-standard> fills its element', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    // A page of its own: the bubble and standard embeds of the test above leave theirs open.
    const { publicId } = await publishFixture(client, 'greeting')
    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    await showOnAnotherSite(
      page,
      `<!doctype html><html><body>
      <flowcraft-standard public-id=${JSON.stringify(publicId)} style="height: 400px"></flowcraft-standard>
      <script src="${origin}/embed.js"></script>
      <script>Flowcraft.initPopup({ publicId: ${JSON.stringify(publicId)}, autoShowDelay: 0 })</script>
      </body></html>`,
      cleanup
    )
    await page
      .frameLocator('flowcraft-standard iframe')
      .getByText('Hello! What is your name?')
      .waitFor()
    await page
      .frameLocator('.flowcraft-modal iframe')
      .getByText('Hello! What is your name?')
      .waitFor()
    // Escape pressed in the popup's chat (its iframe has the focus, not the page) reaches
    // the embed as a message, so the popup closes a moment later. Pressing it on the page
    // could land in the inline chat's iframe instead, which must not close the popup.
    await page.frameLocator('.flowcraft-modal iframe').getByRole('textbox').first().press('Escape')
    await page.waitForFunction(
      () => (document.querySelector('.flowcraft-overlay') as HTMLElement | null)?.hidden === true,
      undefined,
      { timeout: 10_000 }
    )
    assert.isTrue(
      await page.locator('.flowcraft-overlay').evaluate((node) => (node as HTMLElement).hidden)
    )
  })

  test("Typebot's embed code runs against /typebot/web.js: initBubble, commands, <typebot-standard>", async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { publicId } = await publishFixture(client, 'greeting', {
      settings: { general: { isInputPrefillEnabled: true } },
    })
    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    // The shape of the snippet Typebot's share dialog gives, with our URL and apiHost.
    await showOnAnotherSite(
      page,
      `<!doctype html><html><body>
      <typebot-standard id="inline" style="width: 100%; height: 400px"></typebot-standard>
      <script type="module">
        import Typebot from '${origin}/typebot/web.js'
        Typebot.initStandard({ typebot: ${JSON.stringify(publicId)}, apiHost: '${origin}', id: 'inline' })
        Typebot.initBubble({
          typebot: ${JSON.stringify(publicId)},
          apiHost: '${origin}',
          previewMessage: { message: 'Need a hand?', autoShowDelay: 0 },
          theme: { button: { backgroundColor: '#0042DA', iconColor: '#FFFFFF' } },
        })
        window.Typebot = Typebot
      </script></body></html>`,
      cleanup
    )
    await page
      .frameLocator('typebot-standard iframe')
      .getByText('Hello! What is your name?')
      .waitFor()
    const button = page.getByRole('button', { name: 'Open the chat' })
    assert.equal(
      await button.evaluate((node) => getComputedStyle(node).backgroundColor),
      'rgb(0, 66, 218)'
    )
    // Variables set before the bubble opens reach its chat.
    await page.evaluate(() => (window as any).Typebot.setPrefilledVariables({ Name: 'Ada' }))
    await page.getByText('Need a hand?').click()
    const bubbleSrc = await page.locator('.flowcraft-panel iframe').getAttribute('src')
    assert.equal(bubbleSrc, `${origin}/${publicId}?embedded=1&Name=Ada`)
    await page
      .frameLocator('.flowcraft-panel iframe')
      .getByText('Hello! What is your name?')
      .waitFor()
    await page.evaluate(() => (window as any).Typebot.close())
    assert.isTrue(await page.locator('.flowcraft-panel').evaluate((n) => (n as HTMLElement).hidden))
    await page.evaluate(() => (window as any).Typebot.toggle())
    assert.isFalse(
      await page.locator('.flowcraft-panel').evaluate((n) => (n as HTMLElement).hidden)
    )
    await page.evaluate(() => (window as any).Typebot.toggle())
    await page.evaluate(() => (window as any).Typebot.showPreviewMessage())
    await page.getByText('Need a hand?').waitFor()
    await page.evaluate(() => (window as any).Typebot.unmount())
    assert.equal(
      await page.locator('.flowcraft-button, .flowcraft-panel, .flowcraft-preview').count(),
      0
    )
    assert.equal(await page.locator('typebot-standard iframe').count(), 0)
  })

  test('a failed send is rolled back and can be retried', async ({ visit, client, assert }) => {
    const { publicId } = await publishFixture(client, 'greeting')
    const page = await visit(`/${publicId}`)
    await withoutTyping(page)
    let failures = 0
    await page.route('**/continueChat', async (route) => {
      if (failures++ > 0) return route.continue()
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Service unavailable' }),
      })
    })
    const field = page.getByRole('textbox')
    await field.fill('Ada')
    await field.press('Enter')
    await page.getByRole('alert').getByText('Service unavailable').waitFor()
    assert.equal(await guest(page).count(), 0, 'the answer was taken back')
    assert.isTrue(await page.getByRole('textbox').isEnabled())
    await page.getByRole('button', { name: 'Try again' }).click()
    await page.getByText('Nice to meet you Ada.').waitFor()
    assert.equal(await guest(page).count(), 1)
  })

  test('an embed waiting for an event holds the conversation until the page posts it', async ({
    visit,
    client,
    assert,
  }) => {
    const text = (id: string, words: string) => ({
      id,
      type: 'text',
      content: { richText: [{ type: 'p', children: [{ text: words }] }] },
    })
    const { publicId } = await publishBot(client, {
      version: '6',
      name: 'Embed wait',
      groups: [
        {
          id: 'g1',
          title: 'Group #1',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [
            text('b1', 'Before the form'),
            {
              id: 'b2',
              type: 'embed',
              content: {
                url: 'https://embed.test/form',
                height: 200,
                waitForEvent: { isEnabled: true, name: 'form-done' },
              },
            },
            text('b3', 'After the form'),
          ],
        },
      ],
      events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
      edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
      variables: [],
      theme: {},
      settings: {},
    })
    const page = await visit('/signin')
    await withoutTyping(page)
    await page.route('https://embed.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<button onclick="parent.postMessage({ name: 'form-done', data: 'ok' }, '*')">Finish</button>`,
      })
    )
    await page.goto(`/${publicId}`)
    const form = page.frameLocator('iframe[src="https://embed.test/form"]')
    await form.getByRole('button', { name: 'Finish' }).waitFor()
    await page.waitForTimeout(300)
    assert.equal(await page.getByText('After the form').count(), 0, 'held at the embed')
    await form.getByRole('button', { name: 'Finish' }).click()
    await page.getByText('After the form').waitFor()
  })
})
