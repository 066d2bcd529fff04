import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateBot } from '#actions/bots/create_bot'
import { signInWithLink } from '#tests/browser/helpers'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'
import type { BotV6 } from '#shared/bot/types'
import { chatFixture } from '#tests/unit/engine/fixtures'

/**
 * The account takeover of docs/security.md, replayed: a builder, signed in, opens a bot
 * whose author wrote code to read their session and mint an API token. On the public page
 * (head code, client-side Code and Set variable) and in the editor's preview, that code
 * runs in an opaque origin: it reads no cookie, and its calls to the app carry none.
 */

/** What every attempt reports: origin, document.cookie, GET /api/v1/me, POST a key. */
const PROBE = `
  let cookie = 'readable'
  try { document.cookie } catch (error) { cookie = 'blocked' }
  let me = 'failed'
  try {
    const answer = await fetch('/api/v1/me', { credentials: 'include' })
    me = answer.status + ':' + (await answer.text())
  } catch (error) {}
  let xsrf = ''
  try { xsrf = decodeURIComponent((document.cookie.match(/XSRF-TOKEN=([^;]+)/) || [])[1] || '') } catch (error) {}
  let key = 'failed'
  try {
    const answer = await fetch('/settings/account/keys', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'X-XSRF-TOKEN': xsrf, 'Authorization': 'Bearer none' },
      body: JSON.stringify({ name: 'stolen-' + Math.random() }),
    })
    key = answer.status + ':' + (await answer.text())
  } catch (error) {}
  return [self.origin, cookie, me, key].join('|')
`

const OUTCOME = 'null|blocked|failed|failed'

function attackBot(name: string): Record<string, unknown> {
  const text = (id: string, words: string) => ({
    id,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text: words }] }] },
  })
  return {
    version: '6',
    name,
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          text('t1', 'Welcome'),
          // Client-side Code: fire and forget, as a tracking snippet would.
          {
            id: 'c1',
            type: 'Code',
            options: {
              content: `window.__codeBlock = (async () => {${PROBE}})()`,
              isExecutedOnClient: true,
            },
          },
          // Client-side Set variable: its answer comes back to the chat.
          {
            id: 's1',
            type: 'Set variable',
            options: {
              variableId: 'v_seen',
              type: 'Custom',
              isCode: true,
              isExecutedOnClient: true,
              expressionToEvaluate: PROBE,
            },
          },
          text('t2', 'Seen {{Seen}}'),
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [{ id: 'v_seen', name: 'Seen' }],
    theme: {},
    settings: {
      metadata: {
        customHeadCode: `<script>window.__headCode = (async () => {${PROBE}})()</script>`,
      },
    },
  }
}

async function publishAsAttacker(client: ApiClient, bot: Record<string, unknown>) {
  const attacker = await createUser()
  await setUserPlan(attacker, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(attacker)
  const token = (await new CreateApiToken().handle(attacker, `attacker-${Date.now()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(token)
  published.assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

test.group("Bot-authored code and the builder's session", () => {
  test('a signed-in builder who opens a published bot lends its code nothing', async ({
    visit,
    client,
    assert,
  }) => {
    const publicId = await publishAsAttacker(client, attackBot('Innocent survey'))
    const email = uniqueEmail('victim')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const victim = await User.findByOrFail('email', email)
    // There is a session to steal: the dashboard's own scripts can read the XSRF cookie.
    assert.include(await page.evaluate(() => document.cookie), 'XSRF-TOKEN=')

    await page.goto(`/${publicId}`)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    const seen = page.locator('.fc-host-bubble').filter({ hasText: /^Seen / })
    await seen.waitFor()
    // Client-side Set variable: opaque origin, no cookie, both calls refused by the browser.
    assert.equal(await seen.textContent(), `Seen ${OUTCOME}`)
    // Head code and client-side Code block: the same.
    assert.equal(await page.evaluate(() => (window as any).__headCode), OUTCOME)
    assert.equal(await page.evaluate(() => (window as any).__codeBlock), OUTCOME)
    // The page's title is the bot's.
    assert.equal(await page.title(), 'Innocent survey')

    // Nothing was created on the server, and the builder is still signed in.
    assert.lengthOf(await User.accessTokens.all(victim), 0)
    await page.goto('/bots')
    await page.waitForURL(/\/bots$/)
  })

  test("the editor's preview runs the bot's scripts away from the builder's page", async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('previewer')
    const page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    // A bot in the builder's own workspace, as an imported template or a co-editor made it.
    const bot = await new CreateBot().handle(user, workspace, {
      name: 'Shared template',
      content: attackBot('Shared template') as unknown as BotV6,
    })
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    await page.getByTestId('editor-canvas').waitFor()
    await page.getByTestId('preview-button').click()
    const panel = page.getByTestId('preview-panel')
    const seen = panel.locator('.fc-host-bubble').filter({ hasText: /^Seen / })
    await seen.waitFor()
    assert.equal(await seen.textContent(), `Seen ${OUTCOME}`)
    // The scripts ran in the hidden runner, not in this page.
    assert.isUndefined(await page.evaluate(() => (window as any).__codeBlock))
    assert.equal(await page.getByTestId('preview-script-runner').count(), 1)
    assert.lengthOf(await User.accessTokens.all(user), 0)
  })

  test('the sandboxed page still chats: prefill, hidden query params, remember user off', async ({
    visit,
    client,
    assert,
  }) => {
    const bot = { ...chatFixture('greeting').bot }
    delete bot.id
    delete bot.publicId
    const publicId = await publishAsAttacker(client, {
      ...bot,
      settings: {
        general: {
          isInputPrefillEnabled: true,
          isHideQueryParamsEnabled: true,
          rememberUser: { isEnabled: true, storage: 'local' },
        },
      },
    })
    const page = await visit(`/${publicId}?Name=Zed`)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.locator('.fc-host-bubble').filter({ hasText: 'What is your name?' }).waitFor()
    assert.equal(await page.evaluate(() => self.origin), 'null')
    // The query string is read, then taken out of the address bar.
    assert.equal(await page.getByRole('textbox').inputValue(), 'Zed')
    assert.equal(new URL(page.url()).search, '')
    // No storage in an opaque origin: nothing is remembered, and nothing breaks.
    assert.isFalse(
      await page.evaluate(() => {
        try {
          return localStorage.length >= 0
        } catch {
          return false
        }
      })
    )
    await page.getByRole('textbox').press('Enter')
    await page.getByText('Nice to meet you Zed.').waitFor()
  })
})
