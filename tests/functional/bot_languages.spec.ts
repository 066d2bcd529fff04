import { test } from '@japa/runner'
import { writeFile, mkdir } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import Bot from '#models/bot'
import Result from '#models/result'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import {
  createUser,
  firstWorkspaceOf,
  oneGroupExport,
  setUserPlan,
  textBubble,
} from '#tests/helpers'
import { parse as parseCsv } from 'csv-parse/sync'
import { messageText } from '#engine/bot/engine'
import { chatFixture } from '#tests/unit/engine/fixtures'
import type { ChatMessage, StartChatResponse } from '#shared/chat/types'
import type { ApiClient } from '@japa/api-client'
import type User from '#models/user'

/**
 * One bot in three languages through the chat API (docs/editor.md "Languages"): the
 * visitor's Accept-Language, the request's `language` and a choice in the bot pick the
 * texts, the default fills what a language lacks, results record the language, and the
 * translations survive export and import.
 */

const texts = (messages: ChatMessage[]) => messages.map(messageText)

interface Owner {
  user: User
  token: string
  workspaceId: string
}

async function owner(): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `langs-${Date.now()}`)).value
  return { user, token, workspaceId: workspace.id }
}

async function publish(client: ApiClient, who: Owner, bot: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)).assertStatus(200)
  return { id, publicId: (await Bot.findOrFail(id)).publicId! }
}

// Its own id: chat_api.spec.ts imports the same fixture bot by its id into the same database.
const languagesBot = (): Record<string, any> => ({
  ...structuredClone(chatFixture('languages').bot),
  id: 'langsspecbot',
})

test.group('Bot languages: chat API', (group) => {
  let who: Owner
  let published: { id: string; publicId: string }

  group.setup(async () => {
    who = await owner()
  })

  test('Accept-Language picks each of the three languages, with the default as fallback', async ({
    client,
    assert,
  }) => {
    published ??= await publish(client, who, languagesBot())
    const cases = [
      {
        header: 'fr-CH, fr;q=0.9, en;q=0.5',
        language: 'fr',
        greeting: 'Bonjour Ann ! Choisissez une offre.',
        items: ['Gratuit', 'Pro'],
      },
      {
        header: 'de-DE,de;q=0.9',
        language: 'de',
        greeting: 'Hallo Ann! Wähle einen Tarif.',
        items: ['Kostenlos', 'Pro'],
      },
      {
        header: 'ja-JP, ja;q=0.9',
        language: 'en',
        greeting: 'Hello Ann! Pick a plan.',
        items: ['Free', 'Pro'],
      },
    ]
    for (const expected of cases) {
      const start = await client
        .post(`/api/v1/typebots/${published.publicId}/startChat`)
        .header('accept-language', expected.header)
        .json({ prefilledVariables: { Name: 'Ann' } })
      start.assertStatus(200)
      const body = start.body() as StartChatResponse
      assert.deepEqual(texts(body.messages), [expected.greeting], expected.header)
      assert.deepEqual(
        body.input?.items?.map((item) => item.content),
        expected.items,
        expected.header
      )
      // The answer is checked against the buttons as the visitor saw them.
      const answer = await client
        .post(`/api/v1/sessions/${body.sessionId}/continueChat`)
        .json({ message: expected.items[0] })
      answer.assertStatus(200)
      assert.equal(answer.body().input?.type, 'number input')
      const retry = await client
        .post(`/api/v1/sessions/${body.sessionId}/continueChat`)
        .json({ message: 'not a number' })
      // German has no retry message of its own: the default language's.
      assert.deepEqual(
        texts(retry.body().messages),
        [expected.language === 'fr' ? "Ce n'est pas un nombre." : 'That is not a number.'],
        expected.header
      )
      const result = await Result.findOrFail(body.resultId)
      assert.equal(result.language, expected.language, expected.header)
    }
  }).timeout(120_000)

  test('the request’s language wins over Accept-Language; the results API shows it', async ({
    client,
    assert,
  }) => {
    published ??= await publish(client, who, languagesBot())
    const start = await client
      .post(`/api/v1/typebots/${published.publicId}/startChat`)
      .header('accept-language', 'de')
      .json({ language: 'fr', prefilledVariables: { Name: 'Zoé' } })
    const body = start.body() as StartChatResponse
    assert.deepEqual(texts(body.messages), ['Bonjour Zoé ! Choisissez une offre.'])
    await client
      .post(`/api/v1/sessions/${body.sessionId}/continueChat`)
      .json({ message: 'Gratuit' })
    const listed = await client.get(`/api/v1/bots/${published.id}/results`).bearerToken(who.token)
    listed.assertStatus(200)
    const row = listed.body().results.find((r: any) => r.id === body.resultId)
    assert.equal(row.language, 'fr')
    assert.equal(row.variables.find((v: any) => v.name === 'language')?.value, 'fr')
  }).timeout(120_000)

  test('a choice in the bot changes the language mid-chat', async ({ client, assert }) => {
    const bot = oneGroupExport(
      'langchoice01',
      'Language choice',
      [
        {
          id: 'pick',
          type: 'choice input',
          options: { variableId: 'v_lang' },
          items: [
            { id: 'i_en', content: 'English' },
            { id: 'i_fr', content: 'Français' },
            { id: 'i_de', content: 'Deutsch' },
          ],
        },
        textBubble('bye', 'Goodbye'),
      ],
      [{ id: 'v_lang', name: 'language' }]
    ) as any
    bot.settings = {
      languages: { default: 'en', others: ['fr', 'de'] },
      translations: { fr: { 'bye/content.richText': 'Au revoir' }, de: {} },
    }
    const { publicId } = await publish(client, who, bot)
    const start = (
      await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    ).body() as StartChatResponse
    const reply = await client
      .post(`/api/v1/sessions/${start.sessionId}/continueChat`)
      .json({ message: 'Français' })
    assert.deepEqual(texts(reply.body().messages), ['Au revoir'])
    assert.equal((await Result.findOrFail(start.resultId)).language, 'fr')
    const german = (
      await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    ).body() as StartChatResponse
    const fallback = await client
      .post(`/api/v1/sessions/${german.sessionId}/continueChat`)
      .json({ message: 'Deutsch' })
    assert.deepEqual(texts(fallback.body().messages), ['Goodbye'])
    assert.equal((await Result.findOrFail(german.resultId)).language, 'de')
  }).timeout(120_000)
})

test.group('Bot languages: results', () => {
  test('the results table and the CSV have a Language column with each chat’s language', async ({
    client,
    assert,
  }) => {
    const who = await owner()
    const bot = { ...languagesBot(), id: 'langsresults1' }
    const { id, publicId } = await publish(client, who, bot)
    const started: Record<string, string> = {}
    for (const language of ['fr', 'de', 'en']) {
      const start = await client
        .post(`/api/v1/typebots/${publicId}/startChat`)
        .json({ language, prefilledVariables: { Name: 'Ann' } })
      start.assertStatus(200)
      const body = start.body() as StartChatResponse
      await client
        .post(`/api/v1/sessions/${body.sessionId}/continueChat`)
        .json({ message: body.input!.items![0].content })
      started[language] = body.resultId!
    }

    const table = await client.get(`/api/bots/${id}/results/table`).loginAs(who.user)
    table.assertStatus(200)
    const language = table.body().columns.at(-1)
    assert.deepEqual(
      { id: language.id, kind: language.kind, label: language.label },
      { id: 'resultLanguage', kind: 'language', label: 'Language' }
    )
    const rows = await client.get(`/api/bots/${id}/results`).loginAs(who.user)
    rows.assertStatus(200)
    for (const [tag, resultId] of Object.entries(started)) {
      const row = rows.body().results.find((r: any) => r.id === resultId)
      assert.equal(row.cells.resultLanguage, tag)
    }

    const csv = await client
      .post(`/api/bots/${id}/results/export`)
      .json({ all: true })
      .loginAs(who.user)
      .withCsrfToken()
    csv.assertStatus(200)
    const records: string[][] = parseCsv(csv.text())
    const column = records[0].indexOf('Language')
    assert.equal(column, records[0].length - 1)
    // Newest first.
    assert.deepEqual(
      records.slice(1).map((record) => record[column]),
      ['en', 'de', 'fr']
    )
    const chosen = await client
      .post(`/api/bots/${id}/results/export`)
      .json({ ids: [started.fr], columns: ['resultLanguage'] })
      .loginAs(who.user)
      .withCsrfToken()
    assert.deepEqual(parseCsv(chosen.text()), [['Language'], ['fr']])
  }).timeout(120_000)

  test('a bot in one language has no Language column', async ({ client, assert }) => {
    const who = await owner()
    const { id } = await publish(
      client,
      who,
      oneGroupExport('langsresults2', 'One language', [textBubble('t1', 'Hi there')])
    )
    const table = await client.get(`/api/bots/${id}/results/table`).loginAs(who.user)
    table.assertStatus(200)
    assert.notInclude(
      table.body().columns.map((c: any) => c.kind),
      'language'
    )
  }).timeout(120_000)
})

test.group('Bot languages: export and import', () => {
  test('an exported bot imports with its languages and translations', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const dir = app.tmpPath('uploads-test')
    await mkdir(dir, { recursive: true })
    const file = `${dir}/languages-${Date.now()}.json`
    await writeFile(file, JSON.stringify(languagesBot()))
    await client.post('/bots/import').file('file', file).loginAs(user).withCsrfToken().redirects(0)
    const original = await Bot.query().where('workspace_id', workspace.id).firstOrFail()

    const exported = await client.get(`/bots/${original.id}/export`).loginAs(user)
    exported.assertStatus(200)
    const settings = exported.body().settings
    assert.deepEqual(settings.languages, { default: 'en', others: ['fr', 'de'] })
    assert.deepEqual(settings.translations, languagesBot().settings.translations)

    await writeFile(file, JSON.stringify(exported.body()))
    await client.post('/bots/import').file('file', file).loginAs(user).withCsrfToken().redirects(0)
    const copy = await Bot.query()
      .where('workspace_id', workspace.id)
      .whereNot('id', original.id)
      .firstOrFail()
    assert.deepEqual((copy.settings as any).translations, settings.translations)
    assert.deepEqual((copy.settings as any).languages, settings.languages)
  }).timeout(120_000)

  test('a Typebot export imports in the default language only', async ({ client, assert }) => {
    const who = await owner()
    const typebot = oneGroupExport('typebotlang1', 'From Typebot', [textBubble('t1', 'Hi there')])
    const { publicId } = await publish(client, who, typebot)
    const bot = await Bot.query().where('workspace_id', who.workspaceId).firstOrFail()
    assert.isUndefined((bot.settings as any).languages)
    const start = await client
      .post(`/api/v1/typebots/${publicId}/startChat`)
      .header('accept-language', 'fr')
      .json({})
    assert.deepEqual(texts(start.body().messages), ['Hi there'])
    assert.isNull((await Result.findOrFail(start.body().resultId)).language)
  }).timeout(120_000)
})
