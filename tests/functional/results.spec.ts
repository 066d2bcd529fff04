import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import Answer from '#models/answer'
import Bot from '#models/bot'
import Result from '#models/result'
import WorkspaceMember from '#models/workspace_member'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { EXPORT_BATCH_SIZE } from '#actions/results/export_results'
import { newId } from '#services/ids'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { contactBot } from '#tests/fixtures/results/contact_bot'

/**
 * Results of a published bot, produced by real conversations through the public chat API
 * (as tests/functional/chat_api.spec.ts does), then read, searched, exported, archived and
 * deleted through the results tab's JSON calls and the REST API.
 */

interface Owner {
  user: User
  token: string
  workspaceId: string
}

async function owner(): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `results-${newId()}`)).value
  return { user, token, workspaceId: workspace.id }
}

async function publish(client: ApiClient, who: Owner, raw: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot: raw })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)
  if (published.status() !== 200) throw new Error(JSON.stringify(published.body()))
  const bot = await Bot.findOrFail(id)
  return { id, publicId: bot.publicId! }
}

/** One visitor: starts the chat and sends the answers; returns the result id. */
async function chat(
  client: ApiClient,
  publicId: string,
  answers: string[],
  prefilledVariables?: Record<string, string>
) {
  const start = await client
    .post(`/api/v1/typebots/${publicId}/startChat`)
    .json(prefilledVariables ? { prefilledVariables } : {})
  start.assertStatus(200)
  for (const message of answers) {
    const reply = await client
      .post(`/api/v1/sessions/${start.body().sessionId}/continueChat`)
      .json({ message })
    reply.assertStatus(200)
  }
  return start.body().resultId as string
}

/** The records of a CSV text (quotes, doubled quotes and line breaks inside quotes). */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      record.push(field)
      field = ''
    } else if (char === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
    } else if (char !== '\r') field += char
  }
  if (field || record.length) records.push([...record, field])
  return records
}

const TRICKY = 'Smith, "Bob"\nJunior'

test.group('Results', (group) => {
  let who: Owner
  let bot: { id: string; publicId: string }
  /** Oldest first: ada (complete), bob (complete, tricky name), cy (name only), a view. */
  const ids: Record<'ada' | 'bob' | 'cy' | 'view', string> = {} as any

  group.setup(async () => {
    who = await owner()
  })

  /** The shared results, made once by the first test that needs them. */
  async function seed(client: ApiClient) {
    if (bot) return
    bot = await publish(client, who, contactBot)
    ids.ada = await chat(client, bot.publicId, ['Ada', 'ada@example.com'], { Source: 'newsletter' })
    ids.bob = await chat(client, bot.publicId, [TRICKY, 'bob@example.com'])
    ids.cy = await chat(client, bot.publicId, ['Cy'])
    ids.view = await chat(client, bot.publicId, [])
  }

  test('the REST API pages results newest first with a cursor', async ({ client, assert }) => {
    await seed(client)
    const first = await client.get(`/api/v1/bots/${bot.id}/results?limit=2`).bearerToken(who.token)
    first.assertStatus(200)
    assert.deepEqual(
      first.body().results.map((r: any) => r.id),
      [ids.cy, ids.bob]
    )
    assert.equal(first.body().nextCursor, ids.bob)
    const cy = first.body().results[0]
    assert.isTrue(cy.hasStarted)
    assert.isFalse(cy.isCompleted)
    assert.deepEqual(
      cy.answers.map((a: any) => [a.blockId, a.groupId, a.variableId, a.content]),
      [['b_name', 'g_contact', 'v_name', 'Cy']]
    )
    assert.deepEqual(cy.answers[0].attachedFileUrls, [])
    assert.isString(cy.createdAt)
    assert.deepInclude(cy.variables, { id: 'v_name', name: 'Name', value: 'Cy' })

    const second = await client
      .get(`/api/v1/bots/${bot.id}/results?limit=2&cursor=${first.body().nextCursor}`)
      .bearerToken(who.token)
    second.assertStatus(200)
    assert.deepEqual(
      second.body().results.map((r: any) => r.id),
      [ids.ada]
    )
    assert.isNull(second.body().nextCursor)

    // Views without answers only with includeAll.
    const all = await client
      .get(`/api/v1/bots/${bot.id}/results?includeAll=true`)
      .bearerToken(who.token)
    assert.deepEqual(
      all.body().results.map((r: any) => r.id),
      [ids.view, ids.cy, ids.bob, ids.ada]
    )
    ;(
      await client.get(`/api/v1/bots/${bot.id}/results?limit=0`).bearerToken(who.token)
    ).assertStatus(422)
  })

  test('the table: columns, cells, search over answers and variables', async ({
    client,
    assert,
  }) => {
    await seed(client)
    const table = await client.get(`/api/bots/${bot.id}/results/table`).loginAs(who.user)
    table.assertStatus(200)
    assert.deepEqual(
      table.body().columns.map((c: any) => [c.id, c.kind, c.label]),
      [
        ['createdAt', 'submittedAt', 'Submitted at'],
        ['b_name', 'block', 'Name'],
        ['b_email', 'block', 'Contact · Email'],
        ['v_source', 'variable', 'Source'],
      ]
    )
    assert.isTrue(table.body().canWrite)

    const page = await client.get(`/api/bots/${bot.id}/results`).loginAs(who.user)
    page.assertStatus(200)
    assert.equal(page.body().total, 3)
    const ada = page.body().results.find((r: any) => r.id === ids.ada)
    assert.deepInclude(ada.cells, {
      b_name: 'Ada',
      b_email: 'ada@example.com',
      v_source: 'newsletter',
    })
    assert.equal(ada.cells.createdAt, ada.createdAt)

    const search = async (text: string) => {
      const response = await client
        .get(`/api/bots/${bot.id}/results`)
        .qs({ search: text })
        .loginAs(who.user)
      response.assertStatus(200)
      return response.body().results.map((r: any) => r.id)
    }
    assert.deepEqual(await search('ADA@'), [ids.ada])
    assert.deepEqual(await search('newsletter'), [ids.ada])
    assert.deepEqual(await search('"bob"'), [ids.bob])
    assert.deepEqual(await search('100%'), [])
    assert.deepEqual(await search('_'), [])
  })

  test('CSV export: selected rows or all, quoted fields, chosen columns', async ({
    client,
    assert,
  }) => {
    await seed(client)
    const selected = await client
      .post(`/api/bots/${bot.id}/results/export`)
      .json({ ids: [ids.ada, ids.bob] })
      .loginAs(who.user)
      .withCsrfToken()
    selected.assertStatus(200)
    assert.match(selected.header('content-type') ?? '', /^text\/csv/)
    assert.match(
      selected.header('content-disposition') ?? '',
      /attachment; filename="Contact-form-results-/
    )
    assert.equal(selected.header('x-total-count'), '2')
    const text = selected.text()
    assert.include(text, '"Smith, ""Bob""\nJunior"')
    const records = parseCsv(text)
    assert.deepEqual(records[0], ['Submitted at', 'Name', 'Contact · Email', 'Source'])
    assert.deepEqual(
      records.slice(1).map((r) => r.slice(1)),
      [
        [TRICKY, 'bob@example.com', ''],
        ['Ada', 'ada@example.com', 'newsletter'],
      ]
    )
    assert.isTrue(DateTime.fromISO(records[1][0]).isValid)

    const all = await client
      .post(`/api/bots/${bot.id}/results/export`)
      .json({ all: true, columns: ['v_source', 'b_name', 'nope'] })
      .loginAs(who.user)
      .withCsrfToken()
    all.assertStatus(200)
    assert.deepEqual(parseCsv(all.text()), [
      ['Source', 'Name'],
      ['', 'Cy'],
      ['', TRICKY],
      ['newsletter', 'Ada'],
    ])
  })

  test('variables created in the editor and set during the chat are columns of the table and the CSV', async ({
    client,
    assert,
  }) => {
    // The shape a builder draws: a text input, buttons, a condition, then a Set variable on a
    // variable the editor's picker created (isSessionVariable) and a closing bubble.
    const drawn = await publish(client, who, {
      version: '6',
      id: 'drawnbot000001',
      name: 'Drawn',
      events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
      groups: [
        {
          id: 'g1',
          title: 'Ask',
          graphCoordinates: { x: 200, y: 0 },
          blocks: [
            {
              id: 'b1',
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: 'Name?' }] }] },
            },
            { id: 'b2', type: 'text input', options: { variableId: 'vname' } },
            {
              id: 'b3',
              type: 'choice input',
              options: { variableId: 'vmood' },
              items: [
                { id: 'i1', content: 'Good', outgoingEdgeId: 'e1' },
                { id: 'i2', content: 'Bad', outgoingEdgeId: 'e1' },
              ],
            },
          ],
        },
        {
          id: 'g2',
          title: 'Check',
          graphCoordinates: { x: 400, y: 0 },
          blocks: [
            {
              id: 'b4',
              type: 'Condition',
              options: {},
              items: [
                {
                  id: 'c1',
                  content: {
                    comparisons: [
                      { variableId: 'vmood', comparisonOperator: 'Equal to', value: 'Good' },
                    ],
                    logicalOperator: 'AND',
                  },
                  outgoingEdgeId: 'e2',
                },
              ],
              outgoingEdgeId: 'e2',
            },
          ],
        },
        {
          id: 'g3',
          title: 'Greet',
          graphCoordinates: { x: 600, y: 0 },
          blocks: [
            {
              id: 'b5',
              type: 'Set variable',
              options: {
                variableId: 'vgreeting',
                type: 'Custom',
                expressionToEvaluate: 'Hello {{Name}}',
              },
            },
            {
              id: 'b6',
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: '{{Greeting}}' }] }] },
            },
          ],
        },
      ],
      edges: [
        { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g1' } },
        { id: 'e1', from: { blockId: 'b3' }, to: { groupId: 'g2' } },
        { id: 'e2', from: { blockId: 'b4', itemId: 'c1' }, to: { groupId: 'g3' } },
      ],
      variables: [
        { id: 'vname', name: 'Name', isSessionVariable: true },
        { id: 'vmood', name: 'Mood', isSessionVariable: true },
        { id: 'vgreeting', name: 'Greeting', isSessionVariable: true },
      ],
      theme: {},
      settings: {},
    })
    const resultId = await chat(client, drawn.publicId, ['Lin', 'Good'])
    const saved = await Result.findOrFail(resultId)
    assert.deepEqual(
      saved.variables.map((v) => [v.name, v.value]),
      [
        ['Name', 'Lin'],
        ['Mood', 'Good'],
        ['Greeting', 'Hello Lin'],
      ]
    )

    const table = await client.get(`/api/v1/bots/${drawn.id}/results`).bearerToken(who.token)
    table.assertStatus(200)
    assert.deepInclude(table.body().results[0].variables, {
      id: 'vgreeting',
      name: 'Greeting',
      value: 'Hello Lin',
    })

    const csv = await client
      .post(`/api/bots/${drawn.id}/results/export`)
      .json({ all: true })
      .loginAs(who.user)
      .withCsrfToken()
    csv.assertStatus(200)
    const [header, row] = parseCsv(csv.text())
    assert.equal(row[header.indexOf('Greeting')], 'Hello Lin')
  })

  test('the log view and the logs route', async ({ client, assert }) => {
    await seed(client)
    const logs = await client
      .get(`/api/v1/bots/${bot.id}/results/${ids.ada}/logs`)
      .bearerToken(who.token)
    logs.assertStatus(200)
    const errors = logs.body().logs.filter((l: any) => l.status === 'error')
    assert.lengthOf(errors, 1)
    assert.equal(errors[0].description, 'HTTP request: the URL is empty')
    assert.isString(errors[0].createdAt)

    const detail = await client.get(`/api/bots/${bot.id}/results/${ids.ada}/logs`).loginAs(who.user)
    detail.assertStatus(200)
    assert.deepEqual(
      detail.body().answers.map((a: any) => [a.label, a.content]),
      [
        ['Name', 'Ada'],
        ['Contact · Email', 'ada@example.com'],
      ]
    )
    assert.equal(detail.body().logs.length, logs.body().logs.length)
    assert.isTrue(detail.body().isCompleted)

    const other = await owner()
    const otherBot = await publish(client, other, contactBot)
    ;(
      await client
        .get(`/api/v1/bots/${otherBot.id}/results/${ids.ada}/logs`)
        .bearerToken(other.token)
    ).assertStatus(404)
  })

  test('analytics: views, starts, completions and drop-offs per input', async ({
    client,
    assert,
  }) => {
    await seed(client)
    const response = await client.get(`/api/bots/${bot.id}/results/analytics`).loginAs(who.user)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(body.stats, { totalViews: 4, totalStarts: 3, totalCompleted: 2 })
    assert.deepEqual(body.inputBlockIds, ['b_name', 'b_email'])
    assert.deepEqual(body.dropOffs, [
      // the view left before the first question
      { blockId: 'b_name', answered: 3, dropped: 1, dropRate: 0.25, timedOut: 0 },
      // Cy answered the name and stopped
      { blockId: 'b_email', answered: 2, dropped: 1, dropRate: 1 / 3, timedOut: 0 },
    ])
    assert.equal(body.graph.groups[0].id, 'g_contact')
  })

  test('archive then delete, by ids or all matching a search', async ({ client, assert }) => {
    await seed(client)
    const scratch = await publish(client, who, contactBot)
    const first = await chat(client, scratch.publicId, ['Dora', 'dora@example.com'])
    const second = await chat(client, scratch.publicId, ['Eve', 'eve@example.com'])
    const third = await chat(client, scratch.publicId, ['Finn'])
    const listed = async (includeAll = false) =>
      (
        await client
          .get(`/api/bots/${scratch.id}/results`)
          .qs(includeAll ? { includeAll: true } : {})
          .loginAs(who.user)
      )
        .body()
        .results.map((r: any) => r.id)

    const archived = await client
      .post(`/api/bots/${scratch.id}/results/archive`)
      .json({ ids: [first] })
      .loginAs(who.user)
      .withCsrfToken()
    archived.assertStatus(200)
    assert.deepEqual(archived.body(), { archived: 1 })
    assert.deepEqual(await listed(), [third, second])
    assert.include(await listed(true), first)
    assert.isTrue((await Result.findOrFail(first)).isArchived)

    const deleted = await client
      .delete(`/api/bots/${scratch.id}/results`)
      .json({ ids: [second, ids.ada] })
      .loginAs(who.user)
      .withCsrfToken()
    deleted.assertStatus(200)
    // Another bot's result is not touched.
    assert.deepEqual(deleted.body(), { deleted: 1 })
    assert.isNull(await Result.find(second))
    assert.lengthOf(await Answer.query().where('result_id', second), 0)
    assert.isNotNull(await Result.find(ids.ada))

    const all = await client
      .delete(`/api/bots/${scratch.id}/results`)
      .json({ all: true, search: 'finn' })
      .loginAs(who.user)
      .withCsrfToken()
    assert.deepEqual(all.body(), { deleted: 1 })
    assert.deepEqual(await listed(true), [first])
  })

  test('access: strangers get 404, read-only members read and export but cannot change', async ({
    client,
    assert,
  }) => {
    await seed(client)
    const stranger = await owner()
    ;(await client.get(`/api/bots/${bot.id}/results`).loginAs(stranger.user)).assertStatus(404)
    ;(await client.get(`/api/v1/bots/${bot.id}/results`).bearerToken(stranger.token)).assertStatus(
      404
    )
    ;(
      await client
        .post(`/api/bots/${bot.id}/results/export`)
        .json({ all: true })
        .loginAs(stranger.user)
        .withCsrfToken()
    ).assertStatus(404)
    ;(
      await client
        .delete(`/api/bots/${bot.id}/results`)
        .json({ all: true })
        .loginAs(stranger.user)
        .withCsrfToken()
    ).assertStatus(404)
    ;(await client.get(`/api/v1/bots/${bot.id}/results`)).assertStatus(401)

    const reader = await createUser()
    await WorkspaceMember.create({ workspaceId: who.workspaceId, userId: reader.id, role: 'GUEST' })
    const table = await client.get(`/api/bots/${bot.id}/results/table`).loginAs(reader)
    table.assertStatus(200)
    assert.isFalse(table.body().canWrite)
    ;(await client.get(`/api/bots/${bot.id}/results`).loginAs(reader)).assertStatus(200)
    const exported = await client
      .post(`/api/bots/${bot.id}/results/export`)
      .json({ ids: [ids.ada] })
      .loginAs(reader)
      .withCsrfToken()
    exported.assertStatus(200)
    assert.include(exported.text(), 'ada@example.com')
    const refused = await client
      .delete(`/api/bots/${bot.id}/results`)
      .json({ ids: [ids.ada] })
      .loginAs(reader)
      .withCsrfToken()
    refused.assertStatus(403)
    ;(
      await client
        .post(`/api/bots/${bot.id}/results/archive`)
        .json({ ids: [ids.ada] })
        .loginAs(reader)
        .withCsrfToken()
    ).assertStatus(403)
    assert.isNotNull(await Result.find(ids.ada))
  })

  test('the Results tab: members get the editor page, visitors of a public flow do not', async ({
    client,
    assert,
  }) => {
    await seed(client)
    const page = await client.get(`/bots/${bot.id}/results`).loginAs(who.user).withInertia()
    page.assertInertiaComponent('bots/edit')
    assert.equal(page.inertiaProps.tab, 'results')

    const stored = await Bot.findOrFail(bot.id)
    stored.settings = { ...stored.settings, publicShare: { isEnabled: true } } as any
    await stored.save()
    ;(await client.get(`/bots/${bot.id}/edit`).withInertia()).assertStatus(200)
    ;(await client.get(`/bots/${bot.id}/results`).withInertia()).assertStatus(404)
  })

  test('a large export streams every result in batches', async ({ client, assert }) => {
    const big = await publish(client, who, contactBot)
    const visitor = await chat(client, big.publicId, ['Seed', 'seed@example.com'])
    const seeded = await Result.query().where('id', visitor).preload('answers').firstOrFail()
    const count = EXPORT_BATCH_SIZE * 2 + 37
    const stamp = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
    const rows = Array.from({ length: count }, (_, index) => ({
      id: newId(),
      bot_id: big.id,
      variables: JSON.stringify(seeded.variables),
      has_started: true,
      is_completed: true,
      is_archived: false,
      created_at: stamp,
      updated_at: stamp,
      index,
    }))
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200)
      await db.table('results').multiInsert(chunk.map(({ index: _, ...row }) => row))
      await db.table('answers').multiInsert(
        chunk.map((row) => ({
          result_id: row.id,
          block_id: 'b_name',
          group_id: 'g_contact',
          variable_id: 'v_name',
          content: `Visitor ${row.index}`,
          created_at: stamp,
        }))
      )
    }
    const response = await client
      .post(`/api/bots/${big.id}/results/export`)
      .json({ all: true })
      .loginAs(who.user)
      .withCsrfToken()
    response.assertStatus(200)
    assert.equal(response.header('x-total-count'), String(count + 1))
    const records = parseCsv(response.text())
    assert.lengthOf(records, count + 2)
    assert.equal(records[1][1], `Visitor ${count - 1}`)
    assert.equal(records.at(-1)![1], 'Seed')
  })

  test('the OpenAPI document describes the results routes', async ({ client, assert }) => {
    const doc = (await client.get('/api/docs/openapi.json')).body()
    assert.property(doc.paths['/api/v1/bots/{id}/results'], 'get')
    assert.property(doc.paths['/api/v1/bots/{id}/results/{resultId}/logs'], 'get')
  })
})
