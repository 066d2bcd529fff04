import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { tokenFor, botFile } from '#tests/functional/plan_fixtures'

test.group('Chats started with a first message', () => {
  test('240 startChat calls with a message count 240 chats, also before the first question', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    const token = await tokenFor(owner)
    // The bot greets before it asks: the message answers nothing, but the visitor wrote.
    const created = await client
      .post('/api/v1/bots')
      .bearerToken(token)
      .json({ workspaceId: workspace.id, bot: botFile('Greeter') })
    created.assertStatus(201)
    const published = await client
      .post(`/api/v1/bots/${created.body().bot.id}/publish`)
      .bearerToken(token)
    published.assertStatus(200)
    const publicId = published.body().bot.publicId
    forgetChatLimits()

    const starts = 240
    const sessions: string[] = []
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < starts) {
          const i = next++
          const response = await client
            .post(`/api/v1/typebots/${publicId}/startChat`)
            .json({ message: `Hello ${i}` })
          response.assertStatus(200)
          assert.isUndefined(response.body().chatLimitExceededError)
          sessions.push(response.body().sessionId)
        }
      })
    )
    const period = new Date().toISOString().slice(0, 7)
    const usage = async () =>
      Number(
        (await db.from('chat_usage').where({ workspace_id: workspace.id, period }).first())
          ?.chats ?? 0
      )
    assert.equal(await usage(), starts)

    // The answer to the question that follows belongs to the same chat: not counted again.
    const answered = await client
      .post(`/api/v1/sessions/${sessions[0]}/continueChat`)
      .json({ message: 'Ada' })
    answered.assertStatus(200)
    assert.equal(await usage(), starts)

    // A start without a message is no chat yet.
    ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(200)
    assert.equal(await usage(), starts)
  }).timeout(240_000)
})
