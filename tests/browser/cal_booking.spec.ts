import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import Bot from '#models/bot'
import Result from '#models/result'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * The Cal.com block on the public chat page: the booking widget appears in the chat,
 * prefilled and in the chosen layout, through a stand-in of Cal.com's embed script
 * (`{origin}/embed/embed.js`, which takes over the queued `Cal` calls as Cal's does and
 * draws a one-slot "calendar"); booking answers the paused chat with the date, which the
 * next bubble shows and the result keeps.
 */

const CAL_EMBED = `
(function () {
  var previous = window.Cal
  var handlers = {}
  window.calInits = []
  function emit(ns, action, detail) {
    ((handlers[ns] || {})[action] || []).forEach(function (callback) { callback({ detail: detail }) })
  }
  function inline(ns, options) {
    var box = document.createElement('div')
    box.setAttribute('data-testid', 'cal-stand-in')
    box.setAttribute('data-link', options.calLink)
    box.setAttribute('data-layout', options.layout)
    box.setAttribute('data-config', JSON.stringify(options.config))
    var slot = document.createElement('button')
    slot.type = 'button'
    slot.textContent = 'Book Tuesday 1 December, 10:00'
    slot.onclick = function () {
      emit(ns, 'bookingSuccessful', {
        data: { date: '2026-12-01T10:00:00.000Z', confirmed: true, eventType: { slug: '30min' } },
        type: 'bookingSuccessful',
        namespace: ns,
      })
    }
    box.appendChild(slot)
    options.elementOrSelector.appendChild(box)
    setTimeout(function () { emit(ns, 'linkReady', {}) }, 0)
  }
  function namespaced(ns, args) {
    if (args[0] === 'inline') inline(ns, args[1])
    if (args[0] === 'on') {
      handlers[ns] = handlers[ns] || {}
      ;(handlers[ns][args[1].action] = handlers[ns][args[1].action] || []).push(args[1].callback)
    }
  }
  function call(args) {
    if (args[0] !== 'init') return
    var ns = args[1]
    window.calInits.push({ namespace: ns, config: args[2] })
    var queued = (Cal.ns[ns] && Cal.ns[ns].q) || []
    Cal.ns[ns] = function () { namespaced(ns, [].slice.call(arguments)) }
    queued.forEach(function (entry) { namespaced(ns, [].slice.call(entry)) })
  }
  var Cal = function () { call([].slice.call(arguments)) }
  Cal.ns = (previous && previous.ns) || {}
  Cal.loaded = true
  window.Cal = Cal
  ;((previous && previous.q) || []).forEach(function (entry) { call([].slice.call(entry)) })
})()
`

async function calStandIn() {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/')
    if (request.url === '/embed/embed.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' })
      return response.end(CAL_EMBED)
    }
    response.writeHead(404)
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    server,
    requests,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  }
}

const text = (id: string, value: string) => ({
  id,
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text: value }] }] },
})

async function publish(client: ApiClient, calUrl: string) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `cal-${Date.now()}`)).value
  const bot = {
    version: '6',
    name: 'Booking',
    groups: [
      {
        id: 'g1',
        title: 'Start',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('t1', 'What is your name?'),
          { id: 'ask', type: 'text input', options: { variableId: 'v_name' } },
          text('t2', 'Pick a time, {{Name}}.'),
          {
            id: 'cal',
            type: 'cal-com',
            options: {
              baseUrl: calUrl,
              link: 'ada/30min',
              layout: 'Weekly',
              name: '{{Name}}',
              email: 'ada@example.com',
              additionalNotes: 'From the bot',
              saveBookedDateInVariableId: 'v_date',
            },
          },
          text('t3', 'Booked for {{Date}}.'),
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [
      { id: 'v_name', name: 'Name' },
      { id: 'v_date', name: 'Date' },
    ],
    theme: {},
    settings: {},
  }
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)).assertStatus(200)
  return { id, publicId: (await Bot.findOrFail(id)).publicId! }
}

test.group('Cal.com booking in the chat', () => {
  for (const width of [1440, 390]) {
    test(`at ${width} px: the widget is shown prefilled and the booked date saved`, async ({
      browserContext,
      client,
      assert,
      cleanup,
    }) => {
      const cal = await calStandIn()
      cleanup(() => {
        cal.server.close()
      })
      const { id, publicId } = await publish(client, cal.baseUrl)
      const page = await browserContext.newPage()
      // The first page of a run compiles the chat's modules: slow on a busy machine.
      page.setDefaultTimeout(90_000)
      await page.goto(`http://127.0.0.1:${process.env.PORT}/${publicId}`)
      await page.setViewportSize({ width, height: 800 })
      await page.emulateMedia({ reducedMotion: 'reduce' })

      await page.getByText('What is your name?').waitFor()
      const field = page.getByRole('textbox')
      await field.click()
      await page.keyboard.type('Ada')
      await page.keyboard.press('Enter')

      const widget = page.getByTestId('cal-stand-in')
      await widget.waitFor()
      assert.equal(await widget.getAttribute('data-link'), 'ada/30min')
      assert.equal(await widget.getAttribute('data-layout'), 'week_view')
      assert.deepEqual(JSON.parse((await widget.getAttribute('data-config'))!), {
        name: 'Ada',
        email: 'ada@example.com',
        notes: 'From the bot',
        layout: 'week_view',
      })
      assert.deepEqual(
        (await page.evaluate(() => (window as any).calInits)).map((init: any) => init.config),
        [{ origin: cal.baseUrl }]
      )
      const box = await page.getByRole('group', { name: 'Booking calendar' }).boundingBox()
      assert.isAtMost(box!.width, width)

      await page.getByRole('button', { name: 'Book Tuesday 1 December, 10:00' }).click()
      await page.getByText('Booked for 2026-12-01T10:00:00.000Z.').waitFor()
      assert.equal(cal.requests.filter((url) => url === '/embed/embed.js').length, 1)

      const result = await Result.query().where('botId', id).firstOrFail()
      assert.deepInclude(
        result.variables.map((variable) => [variable.id, variable.value]),
        ['v_date', '2026-12-01T10:00:00.000Z']
      )
    })
  }
})
