import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import type { Page } from 'playwright'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import { AI_CREDIT_LIMIT_EXCEEDED_TEXT } from '#shared/chat/types'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateCredential } from '#actions/credentials/create_credential'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { STREAM_MODEL, streamFixtureBot } from '#tests/functional/stream_fixture'
import { startOpenAiStreamStandIn, type OpenAiStreamStandIn } from '#tests/stand_ins/openai_stream'

/**
 * A streamed AI answer on the public chat page: the published streaming fixture bot talks
 * to a local OpenAI stand-in that sends its chunks slowly, and the visitor sees the typing
 * dots, then the bubble growing, then the one final bubble; the chat goes on after it.
 */

const API_KEY = 'sk-viewer-stream'
const CHUNKS = ['Streams ', 'arrive ', 'one ', 'piece ', 'at ', 'a time.']
const FULL_TEXT = CHUNKS.join('')

let standIn: OpenAiStreamStandIn
let owner: { user: User; token: string; workspaceId: string }

async function publishStreamBot(client: ApiClient, apiKey = API_KEY) {
  const workspace = await firstWorkspaceOf(owner.user)
  const credential = await new CreateCredential().handle(owner.user, workspace, {
    type: 'openai',
    name: `stand-in ${Math.random()}`,
    data: { apiKey, baseUrl: standIn.baseUrl },
  })
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(owner.token)
    .json({ workspaceId: owner.workspaceId, bot: streamFixtureBot(credential.id) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(owner.token)
  published.assertStatus(200)
  return (await Bot.findOrFail(id)).publicId!
}

async function ask(page: Page, text: string) {
  const field = page.getByRole('textbox')
  await field.fill(text)
  await field.press('Enter')
}

test.group('Viewer: streamed AI answers', (group) => {
  group.setup(async () => {
    standIn = await startOpenAiStreamStandIn({
      apiKey: API_KEY,
      models: [STREAM_MODEL],
      chunks: CHUNKS,
      chunkDelayMs: 350,
    })
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const token = (await new CreateApiToken().handle(user, `viewer-stream-${Date.now()}`)).value
    owner = { user, token, workspaceId: workspace.id }
    return () => standIn.close()
  })

  test('the answer grows token by token, then becomes one bubble and the chat goes on', async ({
    visit,
    client,
    assert,
  }) => {
    standIn.requests.length = 0
    const publicId = await publishStreamBot(client)
    const page = await visit(`/${publicId}`)
    // No typing emulation: the dots seen below are the stream's, before its first piece.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.getByText('Ask me anything.').waitFor()
    // Every length the growing bubble takes, recorded in the page as the DOM changes (a
    // loaded machine polling from here could miss the short-lived states).
    await page.evaluate(() => {
      const lengths: number[] = []
      ;(window as any).streamLengths = lengths
      new MutationObserver(() => {
        const bubble = document.querySelector('.fc-streaming')
        if (!bubble && !lengths.length && document.querySelector('.fc-typing')) {
          ;(window as any).dotsBeforeText = true
        }
        const length = bubble?.textContent?.length
        if (length !== undefined && lengths.at(-1) !== length) lengths.push(length)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await ask(page, 'What is Flowcraft?')
    await page.getByText(`AI: ${FULL_TEXT}`).waitFor()
    await page.getByText('Anything else?').waitFor()
    const lengths: number[] = await page.evaluate(() => (window as any).streamLengths)
    assert.isTrue(await page.evaluate(() => (window as any).dotsBeforeText), 'typing dots first')
    const partial = new Set(lengths.filter((length) => length < FULL_TEXT.length))
    assert.isAtLeast(partial.size, 2, `lengths seen: ${lengths.join(', ')}`)
    // It only grew.
    assert.deepEqual(
      lengths,
      [...lengths].sort((a, b) => a - b)
    )
    const streaming = page.locator('.fc-streaming')
    // The streamed bubble gave way to the real one: no duplicate, nothing sent as the visitor.
    assert.equal(await streaming.count(), 0)
    assert.equal(await page.locator('.fc-host-bubble', { hasText: FULL_TEXT }).count(), 1)
    assert.deepEqual(await page.locator('.fc-guest-bubble').allTextContents(), [
      'What is Flowcraft?',
    ])
    await page.screenshot({ path: app.makePath('tmp/screenshots/viewer-stream.png') })

    await ask(page, 'No thanks')
    await page.getByText('Bye!').waitFor()
    assert.deepEqual(await page.locator('.fc-guest-bubble').allTextContents(), [
      'What is Flowcraft?',
      'No thanks',
    ])
    const streamed = standIn.requests.filter((request) => request.json?.stream === true)
    assert.lengthOf(streamed, 1)
  })

  test('a refused stream shows why, and the chat goes on', async ({ visit, client }) => {
    const publicId = await publishStreamBot(client, 'sk-not-the-key')
    const page = await visit(`/${publicId}`)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.getByText('Ask me anything.').waitFor()
    await ask(page, 'Hello?')
    await page.getByText('The answer could not be generated (API key missing).').waitFor()
    await page.getByText('Anything else?').waitFor()
    await page.getByRole('textbox').waitFor()
  })

  test('used-up AI credits say so, and the chat goes on', async ({ visit, client }) => {
    const publicId = await publishStreamBot(client)
    await db.from('users').where('id', owner.user.id).update({ ai_credits: 0 })
    try {
      const page = await visit(`/${publicId}`)
      await page.emulateMedia({ reducedMotion: 'reduce' })
      await page.getByText('Ask me anything.').waitFor()
      await ask(page, 'Hello?')
      await page.locator('.fc-notice', { hasText: AI_CREDIT_LIMIT_EXCEEDED_TEXT }).waitFor()
      await page.getByText('Anything else?').waitFor()
    } finally {
      await db.from('users').where('id', owner.user.id).update({ ai_credits: 10 })
    }
  })
})
