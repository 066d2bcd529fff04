import { test } from '@japa/runner'
import Bot from '#models/bot'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { parseDrafts } from '#actions/bots/draft_translations'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/**
 * "Draft with AI" of the Languages panel (docs/bots.md "Languages"): the missing texts go to
 * the workspace's AI credential (the copilot's provider) against the OpenAI stand-in, the
 * answer comes back per text key, nothing is saved on the server; without a credential the
 * builder is told to add one; a provider failure says why.
 */

const KEY = 'drafts-key'

/** A model that "translates" by tagging each text, and answers in a fenced block as many do. */
function frenchTagger(body: any) {
  const user = body.messages.find((m: any) => m.role === 'user')
  const texts = JSON.parse(user.content) as Record<string, string>
  const answer = Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, `FR: ${v}`]))
  return '```json\n' + JSON.stringify(answer) + '\n```'
}

async function builder(baseUrl?: string) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  if (baseUrl) {
    await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'My OpenAI',
      data: { apiKey: KEY, baseUrl },
    })
  }
  const created = await new CreateBot().handle(user, workspace, { name: 'Drafts' })
  const bot = await Bot.findOrFail(created.id)
  bot.settings = { ...bot.settings, languages: { default: 'en', others: ['fr'] } } as any
  await bot.save()
  return { user, workspace, bot } as { user: User; workspace: Workspace; bot: Bot }
}

const texts = [
  { key: 't1/content.richText', source: 'Hello {{Name}}!\nPick a plan.' },
  { key: 'ti/options.labels.placeholder', source: 'Your name' },
]

test.group('Bot languages: drafting translations with AI', () => {
  test('the missing texts go to the AI credential; drafts come back by key, unsaved', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, reply: frenchTagger })
    cleanup(() => standIn.close())
    const who = await builder(standIn.baseUrl)
    const response = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ language: 'fr', texts })
    response.assertStatus(200)
    assert.deepEqual(response.body().drafts, {
      't1/content.richText': 'FR: Hello {{Name}}!\nPick a plan.',
      'ti/options.labels.placeholder': 'FR: Your name',
    })
    const calls = standIn.callsTo('/v1/chat/completions')
    assert.lengthOf(calls, 1)
    const sent = calls[0].json
    assert.equal(sent.model, 'gpt-4o-mini')
    assert.match(sent.messages[0].content, /from English \(en\) to French \(fr\)/)
    assert.match(sent.messages[0].content, /\{\{variable\}\}/)
    // The drafts are the editor's to write: the bot is unchanged.
    const stored = await Bot.findOrFail(who.bot.id)
    assert.isUndefined((stored.settings as any).translations)
  }).timeout(120_000)

  test('without an AI credential the builder is told to add one', async ({ client, assert }) => {
    const who = await builder()
    const response = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ language: 'fr', texts })
    response.assertStatus(422)
    assert.equal(response.body().message, 'No AI provider')
    assert.match(response.body().description, /Credentials to draft translations with AI/)
  }).timeout(120_000)

  test('a provider failure says why; bad input and strangers are refused', async ({
    client,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, reply: frenchTagger })
    cleanup(() => standIn.close())
    const who = await builder(standIn.baseUrl)
    standIn.failWith(500, { error: { message: 'model overloaded' } })
    const failed = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ language: 'fr', texts })
    failed.assertStatus(502)
    assert.match(JSON.stringify(failed.body()), /model overloaded/)
    standIn.failWith(null)

    const badTag = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ language: 'not a language', texts })
    badTag.assertStatus(422)
    const empty = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(who.user)
      .withCsrfToken()
      .json({ language: 'fr', texts: [] })
    empty.assertStatus(422)

    const stranger = await createUser()
    const refused = await client
      .post(`/api/bots/${who.bot.id}/translations/draft`)
      .loginAs(stranger)
      .withCsrfToken()
      .json({ language: 'fr', texts })
    assert.include([403, 404], refused.status())
  }).timeout(120_000)

  test('answers are read with or without a code block; unknown keys and blanks are left out', ({
    assert,
  }) => {
    assert.deepEqual(parseDrafts('Sure! {"a": "Un", "b": " ", "c": "x"}', ['a', 'b']), { a: 'Un' })
    assert.deepEqual(parseDrafts('```json\n{"a": "Un"}\n```', ['a']), { a: 'Un' })
    assert.deepEqual(parseDrafts('no json here', ['a']), {})
    assert.deepEqual(parseDrafts('{"a": [1]}', ['a']), {})
  })
})
