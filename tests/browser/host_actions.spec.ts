import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { publishThroughApi } from '#tests/helpers'

/**
 * The client-side actions that act on the host page (resources/embed/host_actions.ts): a
 * bot embedded with /typebot/web.js on a plain page of another site sends its Google
 * Analytics and Pixel events to that page's gtag and fbq (stubs recording their calls), and
 * its Chatwoot blocks open and close the widget of a stand-in Chatwoot SDK served by that
 * site (`/packs/js/sdk.js`, defining window.chatwootSDK as Chatwoot's does).
 *
 * A bot chooses the addresses its actions load (a Chatwoot block's base URL is any URL), so
 * the host page loads scripts only from origins the integrations declare (`hostScripts`)
 * or the site owner allows (`allowedScriptOrigins`), and `hostActions: false` ignores them
 * all (docs/embed.md).
 */

const CHATWOOT_SDK = `
window.chatwootSDK = {
  run: function (settings) {
    window.chatwootRuns = (window.chatwootRuns || []).concat([settings])
    var widget = document.createElement('div')
    widget.setAttribute('role', 'dialog')
    widget.setAttribute('aria-label', 'Chatwoot conversation')
    widget.textContent = 'Chat with a human'
    widget.hidden = true
    document.body.appendChild(widget)
    window.$chatwoot = {
      toggle: function (state) { widget.hidden = state === 'close' || (!state && !widget.hidden) },
      setUser: function (id, user) { window.chatwootUser = { id: id, user: user } },
    }
    window.dispatchEvent(new Event('chatwoot:ready'))
  },
}
`

function hostSite() {
  const requests: string[] = []
  let html = ''
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/')
    if (request.url === '/packs/js/sdk.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' })
      return response.end(CHATWOOT_SDK)
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    response.end(html)
  })
  return {
    requests,
    server,
    setHtml: (value: string) => (html = value),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
        )
      ),
  }
}

/** The embedding site, on its own origin, closed when the test ends. */
async function startHostSite(cleanup: (fn: () => void) => void) {
  const site = hostSite()
  const siteUrl = await site.start()
  cleanup(() => site.server.close())
  return { site, siteUrl }
}

const text = (id: string, value: string) => ({
  id,
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text: value }] }] },
})

function trackingBot(chatwootUrl: string) {
  return {
    version: '6',
    name: 'Tracking',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('t1', 'Welcome, let me get someone for you.'),
          {
            id: 'ga',
            type: 'Google Analytics',
            options: {
              trackingId: 'G-TEST123',
              action: 'sign_up',
              category: '{{Source}}',
              label: 'form',
              value: '42',
            },
          },
          {
            id: 'px',
            type: 'Pixel',
            options: {
              pixelId: '123456789012345',
              eventType: 'Purchase',
              params: [
                { key: 'value', value: '19.90' },
                { key: 'currency', value: 'EUR' },
              ],
            },
          },
          {
            id: 'cw',
            type: 'Chatwoot',
            options: {
              task: 'Show widget',
              baseUrl: chatwootUrl,
              websiteToken: 'web-token-1',
              user: { id: 'visitor-1', email: 'ada@example.com', name: 'Ada' },
            },
          },
          { id: 'ask', type: 'text input', options: { variableId: 'v_done' } },
          { id: 'cw2', type: 'Chatwoot', options: { task: 'Close widget' } },
          text('t2', 'The widget is closed.'),
        ],
      },
    ],
    events: [
      {
        id: 'ev_start',
        type: 'start',
        graphCoordinates: { x: 0, y: 0 },
        outgoingEdgeId: 'e1',
      },
    ],
    edges: [{ id: 'e1', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_source', name: 'Source', value: 'bot' },
      { id: 'v_done', name: 'Done' },
    ],
    theme: {},
    settings: {},
  }
}

/** Records the host actions the bot's iframe posts, to wait for them. */
const RECORD_MESSAGES = `
  window.hostActions = []
  window.addEventListener('message', function (event) {
    if (event.data && event.data.type === 'flowcraft:hostAction') {
      window.hostActions.push(event.data.action.type)
    }
  })
`

async function hostActionsPosted(page: import('playwright').Page, count: number) {
  await page.waitForFunction((n) => ((window as any).hostActions ?? []).length >= n, count, {
    timeout: 60_000,
  })
}

test.group('Embed: actions on the host page', () => {
  test('GA and Pixel events reach the host page gtag and fbq; Chatwoot opens, then closes', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { site, siteUrl } = await startHostSite(cleanup)
    const publicId = await publishThroughApi(client, trackingBot(siteUrl))

    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    site.setHtml(`<!doctype html><html><body>
      <script>
        window.calls = []
        window.gtag = function () { window.calls.push(['gtag'].concat([].slice.call(arguments))) }
        window.fbq = function () { window.calls.push(['fbq'].concat([].slice.call(arguments))) }
      </script>
      <typebot-standard style="width: 100%; height: 500px"></typebot-standard>
      <script type="module">
        import Typebot from '${origin}/typebot/web.js'
        Typebot.initStandard({
          typebot: ${JSON.stringify(publicId)},
          apiHost: '${origin}',
          // The site hosts its own Chatwoot: its owner allows that origin.
          allowedScriptOrigins: ['${siteUrl}'],
        })
      </script></body></html>`)
    await page.goto(`${siteUrl}/`)

    const chat = page.frameLocator('typebot-standard iframe')
    await chat.getByText('Welcome, let me get someone for you.').waitFor()
    const widget = page.getByRole('dialog', { name: 'Chatwoot conversation' })
    await widget.waitFor({ state: 'visible' })

    const calls = await page.evaluate(() => (window as any).calls)
    assert.deepEqual(calls, [
      [
        'gtag',
        'event',
        'sign_up',
        { event_category: 'bot', event_label: 'form', value: 42, send_to: 'G-TEST123' },
      ],
      ['fbq', 'track', 'Purchase', { value: '19.90', currency: 'EUR' }],
    ])
    assert.deepEqual(await page.evaluate(() => (window as any).chatwootRuns), [
      { websiteToken: 'web-token-1', baseUrl: siteUrl },
    ])
    assert.deepEqual(await page.evaluate(() => (window as any).chatwootUser), {
      id: 'visitor-1',
      user: { email: 'ada@example.com', name: 'Ada' },
    })
    assert.equal(site.requests.filter((url) => url === '/packs/js/sdk.js').length, 1)

    const field = chat.getByRole('textbox')
    await field.click()
    await page.keyboard.type('thanks')
    await page.keyboard.press('Enter')
    await chat.getByText('The widget is closed.').waitFor()
    await widget.waitFor({ state: 'hidden' })
    // The SDK is loaded once; closing needs no second load.
    assert.equal(site.requests.filter((url) => url === '/packs/js/sdk.js').length, 1)
  })
})

test.group('Embed: scripts a bot may load into the host page', () => {
  test('a script from an origin nobody declared or allowed is refused and said on the console', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const site = hostSite()
    const siteUrl = await site.start()
    // The bot's author serves the script: any page embedding the bot would run it.
    const attacker = hostSite()
    const attackerUrl = await attacker.start()
    cleanup(() => {
      site.server.close()
      attacker.server.close()
    })
    const publicId = await publishThroughApi(client, trackingBot(attackerUrl))

    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    site.setHtml(`<!doctype html><html><body>
      <script>
        ${RECORD_MESSAGES}
        window.calls = []
        window.gtag = function () { window.calls.push(['gtag'].concat([].slice.call(arguments))) }
        window.fbq = function () { window.calls.push(['fbq'].concat([].slice.call(arguments))) }
      </script>
      <typebot-standard style="width: 100%; height: 500px"></typebot-standard>
      <script type="module">
        import Typebot from '${origin}/typebot/web.js'
        Typebot.initStandard({ typebot: ${JSON.stringify(publicId)}, apiHost: '${origin}' })
      </script></body></html>`)
    const refused = page.waitForEvent('console', {
      predicate: (message) => message.text().includes('refused to load'),
      timeout: 60_000,
    })
    await page.goto(`${siteUrl}/`)

    const chat = page.frameLocator('typebot-standard iframe')
    await chat.getByText('Welcome, let me get someone for you.').waitFor()
    await hostActionsPosted(page, 3)
    await refused

    assert.deepEqual(attacker.requests, [], 'nothing was fetched from the bot-chosen origin')
    assert.isUndefined(await page.evaluate(() => (window as any).chatwootSDK))
    assert.equal(await page.locator('script[src*="packs/js/sdk.js"]').count(), 0)
    assert.isTrue(
      consoleErrors.some((line) =>
        line.includes(`refused to load ${attackerUrl}/packs/js/sdk.js into this page`)
      ),
      consoleErrors.join('\n')
    )
    // Events for the page's own gtag and fbq load nothing: they still arrive.
    const calls = await page.evaluate(() => (window as any).calls)
    assert.deepEqual(
      calls.map((call: unknown[]) => call[0]),
      ['gtag', 'fbq']
    )
  })

  test('scripts from the origins integrations declare load (gtag.js, fbevents.js, Chatwoot cloud)', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { site, siteUrl } = await startHostSite(cleanup)
    const publicId = await publishThroughApi(client, trackingBot('https://app.chatwoot.com'))

    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    // The declared origins answer from here (nothing outside is reachable in tests).
    const loaded: string[] = []
    await page.route(
      /^https:\/\/(www\.googletagmanager\.com|connect\.facebook\.net|app\.chatwoot\.com)\//,
      (route) => {
        loaded.push(route.request().url())
        const body = route.request().url().endsWith('/packs/js/sdk.js') ? CHATWOOT_SDK : ''
        return route.fulfill({ status: 200, contentType: 'text/javascript', body })
      }
    )
    site.setHtml(`<!doctype html><html><body>
      <div id="chat" style="width: 100%; height: 500px"></div>
      <script src="${origin}/embed.js"></script>
      <script>
        Flowcraft.initStandard({ publicId: ${JSON.stringify(publicId)}, apiHost: '${origin}', element: '#chat' })
      </script></body></html>`)
    await page.goto(`${siteUrl}/`)

    const chat = page.frameLocator('#chat iframe')
    await chat.getByText('Welcome, let me get someone for you.').waitFor()
    await page.getByRole('dialog', { name: 'Chatwoot conversation' }).waitFor({ state: 'visible' })
    assert.deepEqual(await page.evaluate(() => (window as any).chatwootRuns), [
      { websiteToken: 'web-token-1', baseUrl: 'https://app.chatwoot.com' },
    ])
    assert.sameMembers(loaded, [
      'https://www.googletagmanager.com/gtag/js?id=G-TEST123',
      'https://connect.facebook.net/en_US/fbevents.js',
      'https://app.chatwoot.com/packs/js/sdk.js',
    ])
  })

  test('hostActions: false ignores every action of the bot on the page', async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { site, siteUrl } = await startHostSite(cleanup)
    const publicId = await publishThroughApi(client, trackingBot(siteUrl))

    const page = await visit('/signin')
    const origin = new URL(page.url()).origin
    site.setHtml(`<!doctype html><html><body>
      <script>
        ${RECORD_MESSAGES}
        window.calls = []
        window.gtag = function () { window.calls.push(['gtag'].concat([].slice.call(arguments))) }
        window.fbq = function () { window.calls.push(['fbq'].concat([].slice.call(arguments))) }
      </script>
      <div id="chat" style="width: 100%; height: 500px"></div>
      <script src="${origin}/embed.js"></script>
      <script>
        Flowcraft.initStandard({
          publicId: ${JSON.stringify(publicId)},
          apiHost: '${origin}',
          element: '#chat',
          hostActions: false,
          // Even an allowed origin: off is off.
          allowedScriptOrigins: ['${siteUrl}'],
        })
      </script></body></html>`)
    await page.goto(`${siteUrl}/`)

    const chat = page.frameLocator('#chat iframe')
    await chat.getByText('Welcome, let me get someone for you.').waitFor()
    await hostActionsPosted(page, 3)
    // The embed's listener ran with the page's (same message events); one more round trip.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)))

    assert.deepEqual(await page.evaluate(() => (window as any).calls), [])
    assert.isUndefined(await page.evaluate(() => (window as any).chatwootRuns))
    assert.deepEqual(
      site.requests.filter((url) => url === '/packs/js/sdk.js'),
      []
    )
  })
})

test.group('Embed: inject start props', () => {
  test("the bot's Tag Manager container reaches the embedding page, announced to it", async ({
    visit,
    client,
    assert,
    cleanup,
  }) => {
    const { site, siteUrl } = await startHostSite(cleanup)
    const publicId = await publishThroughApi(client, {
      version: '6',
      name: 'Tagged',
      groups: [
        {
          id: 'g1',
          title: 'Start',
          graphCoordinates: { x: 0, y: 100 },
          blocks: [text('t1', 'Hello from a tagged bot.')],
        },
      ],
      events: [{ id: 'ev_start', type: 'start', graphCoordinates: { x: 0, y: 0 } }],
      edges: [{ id: 'e1', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } }],
      variables: [],
      theme: {},
      settings: { metadata: { googleTagManagerId: 'GTM-TEST42' } },
    })

    const page = await visit('/signin')
    // Google is not reached from the tests: the tag's request is answered here.
    await page.route('https://www.googletagmanager.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: 'window.gtmLoaded = 1' })
    )
    const origin = new URL(page.url()).origin
    site.setHtml(`<!doctype html><html><head></head><body>
      <script>
        window.announced = []
        window.addEventListener('flowcraft:startprops', function (event) {
          window.announced.push(event.detail)
        })
      </script>
      <typebot-standard style="width: 100%; height: 500px"></typebot-standard>
      <script type="module">
        import Typebot from '${origin}/typebot/web.js'
        Typebot.initStandard({ typebot: ${JSON.stringify(publicId)}, apiHost: '${origin}' })
      </script></body></html>`)
    await page.goto(`${siteUrl}/`)

    await page
      .frameLocator('typebot-standard iframe')
      .getByText('Hello from a tagged bot.')
      .waitFor()
    await page.waitForFunction(() => (window as any).announced.length > 0)
    assert.deepEqual(await page.evaluate(() => (window as any).announced), [
      { gtmId: 'GTM-TEST42' },
    ])
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll('head script')].map((s) => (s as HTMLScriptElement).src)
    )
    assert.include(scripts, 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST42')
    await page.waitForFunction(() => (window as any).gtmLoaded === 1)
    const dataLayer = await page.evaluate(() => (window as any).dataLayer)
    assert.equal(dataLayer[0].event, 'gtm.js')
  })
})
