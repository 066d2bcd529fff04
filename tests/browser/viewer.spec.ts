import { test } from '@japa/runner'
import Bot from '#models/bot'
import { forgetPublishedBot } from '#services/chat/bot_cache'
import { chatFixture } from '#tests/unit/engine/fixtures'
import {
  publishFixture,
  screenshot,
  withoutTyping,
  onViewerHost,
  showOnAnotherSite,
  guest,
  host,
  useNewOwner,
} from '#tests/browser/viewer_fixtures'

/**
 * The public chat page (resources/pages/viewer/show.tsx) driven like a visitor: fixture
 * bots (tests/fixtures/chat) imported and published through the REST API, then answered
 * in Chromium. Screenshots land in tmp/screenshots/viewer-*.png for a human look.
 */

test.group('Viewer: the public chat page', (group) => {
  group.setup(async () => {
    await useNewOwner()
  })

  test('plays every bubble type with typing emulation, then takes a text answer', async ({
    visit,
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, 'greeting')
    const page = await visit(`/${publicId}`)
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.getByText('Hello! What is your name?').waitFor()
    const field = page.getByRole('textbox')
    await field.waitFor()
    assert.isTrue(await field.evaluate((node) => node === document.activeElement))
    await screenshot(page, 'greeting-desktop')

    await field.fill('Ada')
    await field.press('Enter')
    await guest(page).getByText('Ada', { exact: true }).waitFor()
    // The next bubbles are "typed": the dots show before the text.
    await page.getByRole('status', { name: 'The bot is typing' }).waitFor()
    await page.getByText('Nice to meet you Ada.').waitFor()
    await page.getByText('Bye Ada!').waitFor({ timeout: 15_000 })

    assert.equal(
      await page.locator('img[src="https://example.com/cat.png"]').count(),
      1,
      'image bubble'
    )
    assert.equal(
      await page.locator('a[href="https://example.com"] img').count(),
      1,
      'the image is a link'
    )
    const videoSrc = await page.locator('iframe[src*="youtube.com/embed/"]').getAttribute('src')
    assert.include(videoSrc!, 'dQw4w9WgXcQ')
    assert.equal(await page.locator('audio[src="https://example.com/hello.mp3"]').count(), 1)
    assert.equal(await page.locator('iframe[src="https://example.com/form"]').count(), 1)
    // The flow ended: no input is left.
    assert.equal(await page.getByRole('textbox').count(), 0)
    // The newest message is scrolled into view.
    assert.isTrue(await page.getByText('Bye Ada!').isVisible())
    await screenshot(page, 'greeting-end-desktop')
  })

  test('retry messages, number, email, url, phone and date inputs on a phone', async ({
    visit,
    client,
    assert,
  }) => {
    const { publicId } = await publishFixture(client, 'inputs')
    const page = await visit(`/${publicId}`)
    await withoutTyping(page)
    await page.setViewportSize({ width: 375, height: 667 })

    const number = page.locator('input[type="number"]')
    await number.fill('12')
    await number.press('Enter')
    await page.getByText('Age must be between 18 and 120.').waitFor()
    // The same input again, fresh: the retry message is an ordinary bubble.
    await page.locator('input[type="number"]').fill('42')
    await page.getByRole('button', { name: 'Send' }).click()

    const email = page.locator('input[type="email"]')
    await email.fill('Ada@Example.COM')
    await email.press('Enter')

    const url = page.locator('input[inputmode="url"]')
    await url.fill('https://example.com')
    await url.press('Enter')

    const country = page.getByLabel('Country')
    assert.equal(await country.inputValue(), 'FR', 'the default country is selected')
    const phone = page.locator('input[type="tel"]')
    await phone.fill('06 12 34 56 78')
    await phone.press('Enter')
    await guest(page).getByText('+33612345678').waitFor()

    const date = page.locator('input[type="date"]')
    await date.fill('2024-02-29')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.getByText('42 ada@example.com https://example.com +33612345678 29/02/2024').waitFor()
    await screenshot(page, 'inputs-phone')

    // Nothing wider than the phone's screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth
    )
    assert.isFalse(overflow)
  })

  test('buttons, multiple choice, searchable items and picture choice', async ({
    visit,
    client,
    assert,
  }) => {
    // The dynamic list becomes fixed, searchable items: a list cannot travel in a URL.
    const groups = chatFixture('choices').bot.groups.map((botGroup: any) => ({
      ...botGroup,
      blocks: botGroup.blocks.map((block: any) =>
        block.options?.dynamicVariableId
          ? {
              ...block,
              options: { variableId: block.options.variableId, isSearchable: true },
              items: [
                { id: 'x4', content: 'Red' },
                { id: 'x5', content: 'Green' },
              ],
            }
          : block
      ),
    }))
    const { publicId } = await publishFixture(client, 'choices', { groups })
    const page = await visit(`/${publicId}`)
    await withoutTyping(page)
    await page.getByRole('button', { name: 'Free' }).click()
    await page.getByRole('checkbox', { name: 'Support' }).waitFor()
    await screenshot(page, 'multiple-choice')
    await page.getByText('Free it is.').waitFor()

    await page.getByRole('checkbox', { name: 'Support' }).click()
    await page.getByRole('checkbox', { name: 'Domain' }).click()
    await page.getByRole('button', { name: 'Send' }).click()
    await guest(page).getByText('Support, Domain').waitFor()
    await page.getByText('Extras: Support, Domain').waitFor()

    await page.getByRole('searchbox').fill('gre')
    assert.equal(await page.getByRole('button', { name: 'Red' }).count(), 0, 'filtered out')
    await page.getByRole('button', { name: 'Green' }).click()
    await page.getByText('Color Green').waitFor()

    await page.setViewportSize({ width: 375, height: 667 })
    await page.getByRole('button', { name: 'Sea' }).waitFor()
    await screenshot(page, 'picture-choice-phone')
    await page.getByRole('button', { name: 'Sea' }).click()
    await page.getByText('Picture Sea').waitFor()
  })

  test('rating, optional multiple files with upload, location', async ({
    visit,
    client,
    browserContext,
    assert,
    cleanup,
  }) => {
    const { publicId } = await publishFixture(client, 'rating_file_location')
    // The browser's location is asked for by an origin: the viewer host's.
    const page = await visit(onViewerHost(`/${publicId}`, cleanup))
    await withoutTyping(page)
    const origin = new URL(page.url()).origin
    await browserContext.grantPermissions(['geolocation'], { origin })
    await browserContext.setGeolocation({ latitude: 48.8566, longitude: 2.3522 })

    await page.getByRole('button', { name: '4 out of 5' }).click()
    await page.getByRole('button', { name: 'Send' }).click()
    await guest(page).getByText('4', { exact: true }).waitFor()

    // Optional: a Skip button; several files: a list, then Upload.
    await page.getByRole('button', { name: 'Skip' }).waitFor()
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('first') },
      { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('second') },
    ])
    await page.getByText('a.txt').waitFor()
    await screenshot(page, 'file-input')
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await guest(page).getByText('Files uploaded: 2').waitFor()

    await page.getByRole('button', { name: 'Yes' }).click()
    await guest(page).getByText('48.8566, 2.3522').waitFor()
    const last = await host(page).last().textContent()
    assert.match(last!, /^4 \/ .*a\.txt, .*b\.txt \/ 48\.8566, 2\.3522$/)
  })

  test('client-side actions: wait, browser code, set variable and a paused wait', async ({
    visit,
    client,
  }) => {
    const { publicId } = await publishFixture(client, 'client_actions', {
      // The redirect opens a tab: not what this test looks at.
      groups: chatFixture('client_actions').bot.groups.map((botGroup: any) => ({
        ...botGroup,
        blocks: botGroup.blocks.filter((block: any) => block.type !== 'Redirect'),
      })),
    })
    const page = await visit(`/${publicId}`)
    await withoutTyping(page)
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.getByText('Going somewhere').waitFor()
    await page.getByText('After the wait').waitFor()
    await page.getByText('Server says set on server').waitFor()
    // window.innerWidth, computed in the browser, sent back as the next message.
    await page.getByText('Width 1280').waitFor()
    await page.getByText('Resumed').waitFor()
  })

  test('theme, custom CSS, hidden query params, prefill and remembered result', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { publicId } = await publishFixture(client, 'greeting', {
      theme: {
        general: { background: { type: 'Color', content: '#fef3c7' } },
        chat: {
          hostBubbles: { backgroundColor: '#111827', color: '#f9fafb' },
          hostAvatar: { isEnabled: false },
        },
        customCss: '.fc-host-bubble { letter-spacing: 2px; }',
      },
      settings: {
        general: {
          isBrandingEnabled: true,
          isInputPrefillEnabled: true,
          isHideQueryParamsEnabled: true,
          rememberUser: { isEnabled: true, storage: 'local' },
        },
      },
    })
    // Remembering the result needs the page's own storage: on the viewer host.
    const page = await visit(onViewerHost(`/${publicId}?Name=Zed&utm_source=test`, cleanup))
    await withoutTyping(page)

    // Not the loading skeleton's bubbles: the message's.
    const bubble = host(page).filter({ hasText: 'Hello! What is your name?' })
    await bubble.waitFor()
    const style = await bubble.evaluate((node) => {
      const computed = getComputedStyle(node)
      return {
        background: computed.backgroundColor,
        color: computed.color,
        spacing: computed.letterSpacing,
      }
    })
    assert.deepEqual(style, {
      background: 'rgb(17, 24, 39)',
      color: 'rgb(249, 250, 251)',
      spacing: '2px',
    })
    assert.equal(
      await page
        .getByRole('button', { name: 'Send' })
        .evaluate((node) => getComputedStyle(node).backgroundColor),
      'rgb(37, 99, 235)',
      'the default button colour under a partial theme'
    )
    assert.equal(await page.locator('.fc-avatar').count(), 0, 'no host avatar')
    await page.getByTestId('viewer-branding').waitFor()

    // The query string is read, then removed from the address bar.
    assert.equal(new URL(page.url()).search, '')
    assert.equal(await page.getByRole('textbox').inputValue(), 'Zed')
    const remembered = await page.evaluate(
      (id) => localStorage.getItem(`flowcraft:result:${id}`),
      publicId
    )
    assert.isString(remembered)
    await screenshot(page, 'theme')
  })

  test("startChat leaves once, from the page's inline script, with what the chat would send", async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { publicId } = await publishFixture(client, 'greeting', {
      settings: {
        general: {
          isInputPrefillEnabled: true,
          rememberUser: { isEnabled: true, storage: 'local' },
        },
      },
    })
    const url = onViewerHost(`/${publicId}?Name=Zed&embedded=0`, cleanup)
    // The first visit keeps its result; the next one resumes it with the query's variables.
    const page = await visit(url)
    await withoutTyping(page)
    await host(page).getByText('Hello! What is your name?').waitFor()
    const remembered = await page.evaluate(
      (id) => localStorage.getItem(`flowcraft:result:${id}`),
      publicId
    )
    assert.isString(remembered)

    const starts: unknown[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/startChat')) starts.push(JSON.parse(request.postData()!))
    })
    // Who sent it: the page's inline script (its frames are in the HTML document), not the chat's
    // bundle. Timings cannot say it here: on a second visit the hashed scripts come from the cache.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    const senders: string[][] = []
    cdp.on('Network.requestWillBeSent', (event) => {
      if (!event.request.url.endsWith('/startChat')) return
      const frames = event.initiator.stack?.callFrames ?? []
      senders.push(frames.map((frame) => frame.url))
    })
    await page.goto(url, { waitUntil: 'commit' })
    await host(page).getByText('Hello! What is your name?').waitFor()
    await page.getByRole('textbox').waitFor()
    assert.equal(await page.getByRole('textbox').inputValue(), 'Zed')
    assert.lengthOf(starts, 1, 'one startChat: the chat took the early answer')
    assert.deepEqual(starts[0], {
      resultId: remembered,
      prefilledVariables: { Name: 'Zed' },
      isStreamEnabled: true,
    })
    assert.lengthOf(senders, 1)
    const inPage = (frame: string) => new URL(frame).pathname === `/${publicId}`
    assert.isAbove(senders[0].length, 0, 'a script sent it')
    assert.isTrue(
      senders[0].every(inPage),
      `sent by the inline script of the page, not by a script file: ${senders[0].join(', ')}`
    )
    await cdp.detach()
  })

  test('a closed bot says so', async ({ visit, client }) => {
    const { id, publicId } = await publishFixture(client, 'greeting')
    await Bot.query().where('id', id).update({ isClosed: true })
    forgetPublishedBot(id)
    const page = await visit(`/${publicId}`)
    await page.getByTestId('viewer-error').waitFor()
    await page.getByText('This bot is closed').first().waitFor()
    await page.getByText('It no longer accepts new answers.').waitFor()
  })

  test("a missing bot's page says so on a phone, also in an embed's iframe", async ({
    visit,
    assert,
    cleanup,
  }) => {
    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    await page.setViewportSize({ width: 390, height: 844 })
    // Signing in set the app's cookies: the visitor starts without them.
    await page.context().clearCookies()
    const missing = `gone-${Date.now()}`
    const answer = await page.goto(`${origin}/${missing}`)
    assert.equal(answer?.status(), 404)
    const message = page.getByTestId('viewer-not-found')
    await message.getByRole('heading', { name: 'Bot not found' }).waitFor()
    await message.getByText('This bot does not exist or is no longer published.').waitFor()
    // It fits the phone's width: no sideways scrolling.
    const box = (await message.boundingBox())!
    assert.isAtLeast(box.x, 0)
    assert.isAtMost(box.x + box.width, 390)
    assert.isAtMost(
      await page.evaluate(() => document.documentElement.scrollWidth),
      390,
      'no horizontal overflow'
    )
    // Nothing but the page and its favicon: no script, no stylesheet of the dashboard.
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name)
    )
    assert.isEmpty(loaded.filter((url) => /\.(js|css)(\?|$)/.test(url)))
    assert.deepEqual(await page.context().cookies(origin), [])
    await screenshot(page, 'not-found-phone')

    await showOnAnotherSite(
      page,
      `<!doctype html><html><body>
      <div id="inline" style="width: 360px; height: 500px"></div>
      <script src="${origin}/embed.js"></script>
      <script>Flowcraft.initStandard({ publicId: ${JSON.stringify(missing)}, element: '#inline' })</script>
      </body></html>`,
      cleanup
    )
    await page
      .frameLocator('#inline iframe')
      .getByRole('heading', { name: 'Bot not found' })
      .waitFor()
  })
})
