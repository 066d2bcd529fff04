import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Folder from '#models/folder'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { botTemplates, readTemplatesFrom } from '#services/bot_templates'
import { TEMPLATE_CATEGORIES } from '#shared/bot/templates'
import { messageText } from '#engine/bot/engine'
import type { ChatMessage, ChatReply, StartChatResponse } from '#shared/chat/types'
import type User from '#models/user'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

/** The template gallery: listing, preview chats that save nothing, "Use this template". */

const REQUIRED = [
  'lead-generation',
  'customer-support',
  'faq',
  'quiz',
  'nps-survey',
  'booking-request',
  'onboarding',
  'ai-assistant',
]

async function tokenOf(user: User) {
  return (await new CreateApiToken().handle(user, `tpl-${Date.now()}-${Math.random()}`)).value
}

const texts = (messages: ChatMessage[] = []) => messages.map(messageText)

async function rowCount(table: string) {
  const [row] = await db.from(table).count('* as total')
  return Number(row.total)
}

test.group('Bot templates', () => {
  test('the gallery lists our templates, each in a known category', async ({ client, assert }) => {
    const user = await createUser()
    const anonymous = await client.get('/api/v1/templates')
    anonymous.assertStatus(401)

    const response = await client.get('/api/v1/templates').bearerToken(await tokenOf(user))
    response.assertStatus(200)
    const templates = response.body().templates as any[]
    assert.isAtLeast(templates.length, 8)
    assert.includeMembers(
      templates.map((t) => t.id),
      REQUIRED
    )
    for (const template of templates) {
      assert.include(TEMPLATE_CATEGORIES as readonly string[], template.category, template.id)
      assert.isAbove(template.name.length, 0)
      assert.isAbove(template.description.length, 0)
      assert.isAbove(template.blockCount, 2, template.id)
      // The list is a summary: the bot itself stays on the server.
      assert.notProperty(template, 'bot')
    }
    // Sorted as the filter lists the categories.
    const order = templates.map((t) => TEMPLATE_CATEGORIES.indexOf(t.category))
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b)
    )
  })

  test('every template imports and its first turn runs through the engine', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const token = await tokenOf(user)
    const resultsBefore = await rowCount('results')
    const botsBefore = await rowCount('bots')
    for (const template of await botTemplates()) {
      const response = await client
        .post(`/api/v1/templates/${template.id}/preview/startChat`)
        .bearerToken(token)
        .json({})
      response.assertStatus(200)
      const start = response.body() as StartChatResponse
      assert.isString(start.sessionId)
      assert.isAbove(start.messages.length, 0, `${template.id} says something first`)
      assert.isDefined(start.input, `${template.id} waits for an answer`)
      assert.notInclude(
        (start.logs ?? []).map((log) => log.status),
        'error',
        `${template.id}: ${JSON.stringify(start.logs)}`
      )
    }
    // A preview creates no bot and saves no result.
    assert.equal(await rowCount('results'), resultsBefore)
    assert.equal(await rowCount('bots'), botsBefore)
  })

  test('a quiz preview keeps score across turns', async ({ client, assert }) => {
    const user = await createUser()
    const token = await tokenOf(user)
    const start = (
      await client.post('/api/v1/templates/quiz/preview/startChat').bearerToken(token).json({})
    ).body() as StartChatResponse
    const say = async (message: string) => {
      const response = await client
        .post(`/api/v1/templates/quiz/preview/sessions/${start.sessionId}/continueChat`)
        .bearerToken(token)
        .json({ message })
      response.assertStatus(200)
      return response.body() as ChatReply
    }
    await say('Ada')
    assert.include(texts((await say('Mercury')).messages).join(' '), 'Correct')
    assert.include(texts((await say('One')).messages).join(' '), 'two small moons')
    const last = await say('Jupiter')
    assert.include(texts(last.messages).join(' '), 'You scored 2 / 3, Ada.')
    assert.include(texts(last.messages).join(' '), 'Well done')
  })

  test("a preview session answers only on its own template's path", async ({ client, assert }) => {
    const user = await createUser()
    const token = await tokenOf(user)
    const start = (
      await client.post('/api/v1/templates/faq/preview/startChat').bearerToken(token).json({})
    ).body() as StartChatResponse
    const other = await client
      .post(`/api/v1/templates/quiz/preview/sessions/${start.sessionId}/continueChat`)
      .bearerToken(token)
      .json({ message: 'Mercury' })
    other.assertStatus(404)
    // Nor does the public continueChat run a template (no bot has its id).
    const publicCall = await client
      .post(`/api/v1/sessions/${start.sessionId}/continueChat`)
      .json({ message: 'Is my data safe?' })
    publicCall.assertStatus(404)
    const unknown = await client
      .post('/api/v1/templates/nope/preview/startChat')
      .bearerToken(token)
      .json({})
    unknown.assertStatus(404)
    assert.equal(unknown.body().message, 'Template not found')
  })

  test('"Use this template" creates the bot through the import and opens the editor', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    await setUserPlan(user, 'STANDARD')
    const workspace = await firstWorkspaceOf(user)
    const folder = await Folder.create({ workspaceId: workspace.id, name: 'Sales' })
    const response = await client
      .post('/bots/templates/lead-generation')
      .form({ folderId: folder.id })
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    const bot = await Bot.query().where('workspace_id', workspace.id).firstOrFail()
    response.assertHeader('location', `/bots/${bot.id}/edit`)
    assert.equal(bot.name, 'Lead generation')
    assert.equal(bot.folderId, folder.id)
    assert.equal(bot.version, '6')
    assert.isNull(bot.publicId)
    const file = JSON.parse(
      await readFile(
        new URL('../../database/templates/lead-generation.json', import.meta.url),
        'utf8'
      )
    )
    assert.deepEqual(
      bot.groups.map((g) => g.title),
      file.bot.groups.map((g: any) => g.title)
    )
    assert.deepEqual(bot.variables, file.bot.variables)

    // The created bot runs in the editor's preview like any other.
    const preview = await client
      .post(`/api/v1/typebots/${bot.id}/preview/startChat`)
      .bearerToken(await tokenOf(user))
      .json({})
    preview.assertStatus(200)
    assert.include(texts(preview.body().messages).join(' '), 'Thanks for stopping by')
  })

  test('"Use this template" follows the role, known templates and the plan limit', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const botCount = async () =>
      Number((await Bot.query().where('workspace_id', workspace.id).count('* as n'))[0].$extras.n)

    const unknown = await client
      .post('/bots/templates/does-not-exist')
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    unknown.assertStatus(404)

    // A guest of a workspace cannot create bots in it.
    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const refused = await client
      .post(`/bots/templates/quiz?workspaceId=${workspace.id}`)
      .loginAs(guest)
      .withCsrfToken()
      .redirects(0)
    assert.notMatch(refused.header('location') ?? '', /\/edit$/)
    assert.equal(await botCount(), 0)

    // FREE allows one bot: the second is refused and nothing is created.
    await client.post('/bots/templates/faq').loginAs(user).withCsrfToken().redirects(0)
    const second = await client
      .post('/bots/templates/quiz')
      .loginAs(user)
      .withCsrfToken()
      .redirects(0)
    assert.notMatch(second.header('location') ?? '', /\/edit$/)
    const names = (await Bot.query().where('workspace_id', workspace.id)).map((b) => b.name)
    assert.deepEqual(names, ['Frequently asked questions'])
  })

  test('a broken template file is refused with its name', async ({ assert }) => {
    const dir = await mkdtemp(join(tmpdir(), 'templates-'))
    try {
      const good = JSON.parse(
        await readFile(new URL('../../database/templates/faq.json', import.meta.url), 'utf8')
      )
      await writeFile(join(dir, 'faq.json'), JSON.stringify(good))
      assert.lengthOf(await readTemplatesFrom(dir), 1)

      await writeFile(
        join(dir, 'odd.json'),
        JSON.stringify({ ...good, id: 'odd', category: 'games' })
      )
      await assert.rejects(() => readTemplatesFrom(dir), /odd\.json: category/)

      const noStart = structuredClone(good)
      noStart.id = 'odd'
      // Two groups with one id: the import keeps them, the bot format refuses them.
      noStart.bot.groups.push(structuredClone(noStart.bot.groups[0]))
      await writeFile(join(dir, 'odd.json'), JSON.stringify(noStart))
      await assert.rejects(() => readTemplatesFrom(dir), /odd\.json: the bot is invalid/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
