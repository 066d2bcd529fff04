import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { forgetPublishedBot } from '#services/chat/bot_cache'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { persistTurn, readSession } from '#services/chat/chat_store'
import type { TurnEffects } from '#engine/bot/engine'
import type { SessionState } from '#engine/bot/state'

/**
 * What a chat turn costs the database once the bot and the plan are cached: one read (the
 * session) and, on PostgreSQL, one write statement (data-modifying CTEs: one commit); other
 * dialects run one statement per table touched (session, result, answers).
 */

/** Two rounds of a bubble with a variable and a text input. */
function twoQuestions() {
  const round = (n: number) => ({
    id: `g${n}`,
    title: `Round ${n}`,
    graphCoordinates: { x: n * 300, y: 0 },
    blocks: [
      {
        id: `t${n}`,
        type: 'text',
        content: { richText: [{ type: 'p', children: [{ text: `Question ${n}, {{Name}}?` }] }] },
      },
      { id: `i${n}`, type: 'text input', options: { variableId: `v${n}` } },
    ],
  })
  const groups = [round(0), round(1), round(2)]
  groups[0].blocks[1] = { ...groups[0].blocks[1], outgoingEdgeId: 'e1' } as any
  groups[1].blocks[1] = { ...groups[1].blocks[1], outgoingEdgeId: 'e2' } as any
  return {
    version: '6',
    name: 'Query count',
    groups,
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: -300, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g0' } },
      { id: 'e1', from: { blockId: 'i0' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'i1' }, to: { groupId: 'g2' } },
    ],
    variables: [
      { id: 'v0', name: 'Name' },
      { id: 'v1', name: 'Second' },
      { id: 'v2', name: 'Third' },
    ],
    theme: {},
    settings: {},
  }
}

/** The SQL statements run while `work` runs (knex's query event, read and write clients). */
async function statementsDuring(work: () => Promise<unknown>) {
  const connection = db.manager.get(db.primaryConnectionName)
  const clients = new Set(
    [connection?.connection?.client, connection?.connection?.readClient].filter(Boolean)
  )
  const statements: string[] = []
  const listener = (query: { sql: string }) => {
    statements.push(query.sql)
  }
  for (const client of clients) client!.on('query', listener)
  try {
    await work()
  } finally {
    for (const client of clients) client!.removeListener('query', listener)
  }
  return statements
}

async function publishedBot(client: any) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `queries-${Date.now()}`)).value
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: twoQuestions() })
  imported.assertStatus(201)
  const botId = imported.body().bot.id
  ;(await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)).assertStatus(200)
  const publicId = (await client.get(`/api/v1/bots/${botId}`).bearerToken(token)).body().bot
    .publicId
  return { botId, publicId }
}

/** A published bot that is in none of the process's caches, nor is its chat limit. */
async function uncachedBot(client: any) {
  const bot = await publishedBot(client)
  forgetPublishedBot(bot.botId)
  forgetChatLimits()
  return bot
}

/** `count` startChat calls sent together, with the SQL statements they ran. */
async function startTogether(client: any, publicId: string, count: number, settleMs = 0) {
  let replies: any[] = []
  const statements = await statementsDuring(async () => {
    replies = await Promise.all(
      Array.from({ length: count }, () =>
        client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      )
    )
    // A background refresh runs after the replies: give it time to finish inside the window.
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs))
  })
  for (const reply of replies) reply.assertStatus(200)
  return { replies, statements }
}

/** Reads of the published bot and of the chat limit among `statements`. */
function cacheReads(statements: string[]) {
  return {
    bot: statements.filter((sql) => /published_bots/.test(sql)),
    usage: statements.filter((sql) => /^\s*select/i.test(sql) && /chat_usage/.test(sql)),
  }
}

test.group('Chat API: database statements per turn', () => {
  test('chats starting together on an uncached bot share one read of the bot and of the chat limit', async ({
    client,
    assert,
  }) => {
    const { publicId } = await uncachedBot(client)
    const { replies, statements } = await startTogether(client, publicId, 8)
    assert.lengthOf(new Set(replies.map((reply) => reply.body().sessionId)), 8)
    const reads = cacheReads(statements)
    assert.lengthOf(reads.bot, 1, statements.join('\n'))
    assert.lengthOf(reads.usage, 1, statements.join('\n'))
  })

  test('a stale bot and chat limit are served while one read refreshes them; an unpublished bot then stops', async ({
    client,
    assert,
  }) => {
    const { botId, publicId } = await uncachedBot(client)
    ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(200)

    const realNow = Date.now
    const later = (ms: number) => (Date.now = () => realNow() + ms)
    try {
      later(11_000)
      const { statements } = await startTogether(client, publicId, 6, 300)
      const reads = cacheReads(statements)
      assert.lengthOf(reads.bot, 1, statements.join('\n'))
      assert.lengthOf(reads.usage, 1, statements.join('\n'))

      // Unpublished by another process: one more stale answer, then 404.
      await db.from('published_bots').where('bot_id', botId).delete()
      later(22_000)
      ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(200)
      await new Promise((resolve) => setTimeout(resolve, 300))
      ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(404)
    } finally {
      Date.now = realNow
    }
  })

  test('a continueChat turn reads its session once and writes once per table (one statement on PostgreSQL)', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishedBot(client)

    // The first start loads the bot and the plan into the caches.
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    const sessionId = start.body().sessionId
    const first = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'Ada' })
    first.assertStatus(200)

    let reply: any
    const statements = await statementsDuring(async () => {
      reply = await client
        .post(`/api/v1/sessions/${sessionId}/continueChat`)
        .json({ message: 'second answer' })
    })
    reply.assertStatus(200)
    assert.deepEqual(
      reply.body().messages.map((m: any) => m.content.richText[0].children[0].text),
      ['Question 2, Ada?']
    )

    const reads = statements.filter((sql) => /^\s*select/i.test(sql))
    const writes = statements.filter((sql) => !/^\s*select/i.test(sql))
    // The one read is the session's, and it brings the capability stamp along: the plan
    // checks of the turn's blocks read nothing of their own.
    assert.lengthOf(reads, 1, statements.join('\n'))
    assert.match(reads[0], /chat_sessions/)
    assert.match(reads[0], /capability_stamps/)
    if (db.connection().dialect.name === 'postgres') {
      assert.lengthOf(writes, 1, statements.join('\n'))
      for (const table of ['chat_sessions', 'results', 'answers']) assert.include(writes[0], table)
    } else {
      assert.lengthOf(writes, 3, statements.join('\n'))
    }
  })
})

/**
 * Makes every insert into `answers` fail while `work` runs (a trigger), on SQLite and
 * PostgreSQL; false elsewhere (nothing run).
 */
async function withAnswersRefused(work: () => Promise<void>) {
  const dialect = db.connection().dialect.name
  if (dialect.includes('sqlite')) {
    await db.rawQuery(
      "create trigger refuse_answers before insert on answers begin select raise(abort, 'refused'); end"
    )
  } else if (dialect === 'postgres') {
    await db.rawQuery(
      "create function refuse_answers() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$"
    )
    await db.rawQuery(
      'create trigger refuse_answers before insert on answers for each row execute function refuse_answers()'
    )
  } else return false
  try {
    await work()
  } finally {
    await db.rawQuery(
      dialect === 'postgres'
        ? 'drop trigger refuse_answers on answers'
        : 'drop trigger refuse_answers'
    )
    if (dialect === 'postgres') await db.rawQuery('drop function refuse_answers()')
  }
  return true
}

test.group('Chat API: a turn is written whole', () => {
  test('a turn whose answer cannot be written leaves its session and result as they were', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishedBot(client)
    const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
    start.assertStatus(200)
    const { sessionId, resultId } = start.body()
    const stored = async () => ({
      session: await db.from('chat_sessions').where('id', sessionId).select('state').first(),
      result: await db
        .from('results')
        .where('id', resultId)
        .select('variables', 'has_started')
        .first(),
    })
    const before = await stored()
    const ran = await withAnswersRefused(async () => {
      const reply = await client
        .post(`/api/v1/sessions/${sessionId}/continueChat`)
        .json({ message: 'Ada' })
      assert.isAtLeast(reply.status(), 500)
    })
    if (!ran) return
    // The session's state and the result's variables of the refused turn are not kept: the
    // same answer can be sent again and the chat goes on from where it was.
    assert.deepEqual(await stored(), before)
    const again = await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: 'Ada' })
    again.assertStatus(200)
    assert.deepEqual(
      again.body().messages.map((m: any) => m.content.richText[0].children[0].text),
      ['Question 1, Ada?']
    )
  })
})

test.group('Chat API: capability checks per turn', () => {
  test('a startChat that runs several blocks reads the capability stamp once', async ({
    client,
    assert,
  }) => {
    const { publicId } = await publishedBot(client)
    ;(await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})).assertStatus(200)
    const { statements } = await startTogether(client, publicId, 3)
    // Three starts, each running a bubble and an input (two plan checks): one stamp read each.
    const stampReads = statements.filter(
      (sql) => /capability_stamps/.test(sql) && !/chat_sessions/.test(sql)
    )
    assert.lengthOf(stampReads, 3, statements.join('\n'))
  })
})

test.group('Chat API: counting chats', () => {
  test('chats answering together are all counted, outside the turns’ own statements, and a locked count row holds up one statement, not every turn', async ({
    client,
    assert,
  }) => {
    const { botId, publicId } = await publishedBot(client)
    const bot = await db.from('bots').where('id', botId).select('workspace_id').firstOrFail()
    const usage = async () =>
      Number(
        (await db.from('chat_usage').where('workspace_id', bot.workspace_id).first())?.chats ?? 0
      )
    const sessions: string[] = []
    for (let i = 0; i < 12; i++) {
      const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      start.assertStatus(200)
      sessions.push(start.body().sessionId)
    }
    const answerAll = () =>
      Promise.all(
        sessions.map((sessionId) =>
          client.post(`/api/v1/sessions/${sessionId}/continueChat`).json({ message: 'Ada' })
        )
      )

    // A chat counts at its first answer.
    const before = await usage()
    const sqlite = db.connection().dialect.name.includes('sqlite')
    let replies: any[] = []
    const statements = await statementsDuring(async () => {
      if (sqlite) {
        replies = await answerAll()
        return
      }
      // Another writer holds the count row: the first count waits for it, and the chats
      // answered meanwhile are counted together in the statement after it.
      await db.table('chat_usage').insert({
        workspace_id: bot.workspace_id,
        period: new Date().toISOString().slice(0, 7),
        chats: 0,
      })
      const trx = await db.transaction()
      try {
        await trx.from('chat_usage').where('workspace_id', bot.workspace_id).forUpdate().first()
        const answering = answerAll()
        // Long enough for the 12 turns to reach their count on a loaded machine.
        await new Promise((resolve) => setTimeout(resolve, 1500))
        await trx.commit()
        replies = await answering
      } catch (error) {
        await trx.rollback()
        throw error
      }
    })
    for (const reply of replies) reply.assertStatus(200)
    assert.equal((await usage()) - before, 12)

    const counts = statements.filter((sql) => /chat_usage/.test(sql) && /chats \+/.test(sql))
    const turnWrites = statements.filter((sql) => /answers/.test(sql))
    assert.isAbove(turnWrites.length, 0)
    for (const sql of turnWrites) assert.notInclude(sql, 'chat_usage')
    if (!sqlite) assert.lengthOf(counts, 2, counts.join('\n'))

    // Later answers of the same chats count nothing.
    const again = await statementsDuring(() => answerAll())
    assert.lengthOf(
      again.filter((sql) => /chat_usage/.test(sql)),
      0
    )
    assert.equal((await usage()) - before, 12)
  })
})

/** The state with a mark of the turn that wrote it. */
function marked(state: SessionState, mark: string) {
  return { ...state, currentBlockId: mark } as SessionState
}

/** A continueChat's effects for `resultId`: the answer and the result's variables. */
function answerEffects(
  resultId: string,
  content: string,
  botId: string,
  blockId = 'i0'
): TurnEffects {
  return {
    answers: [{ resultId, blockId, groupId: 'g0', variableId: 'v0', content }],
    timeouts: [],
    logs: [],
    results: new Map([
      [
        resultId,
        { botId, variables: [{ id: 'v0', name: 'Name', value: content }], hasStarted: true },
      ],
    ]),
    newResults: [],
  }
}

test.group('Chat API: turns of one round share their statements (PostgreSQL)', (group) => {
  group.tap((t) => t.skip(db.connection().dialect.name !== 'postgres', 'PostgreSQL only'))

  /** `count` chats started through the API: their sessions, results and bot. */
  async function startedChats(client: any, count: number) {
    const { botId, publicId } = await publishedBot(client)
    const bot = await db.from('bots').where('id', botId).select('workspace_id').firstOrFail()
    const chats: { sessionId: string; resultId: string }[] = []
    for (let i = 0; i < count; i++) {
      const start = await client.post(`/api/v1/typebots/${publicId}/startChat`).json({})
      start.assertStatus(200)
      chats.push({ sessionId: start.body().sessionId, resultId: start.body().resultId })
    }
    return { botId, workspaceId: bot.workspace_id as string, chats }
  }

  const answersOf = async (resultId: string) =>
    (await db.from('answers').where('result_id', resultId).select('content')).map(
      (row) => row.content
    )

  test('the session reads and the writes of turns in one round go as one statement each, each turn with its own rows', async ({
    client,
    assert,
  }) => {
    const { botId, workspaceId, chats } = await startedChats(client, 6)
    const alone = await Promise.all(chats.map(({ sessionId }) => readSession(sessionId)))

    let read: Awaited<ReturnType<typeof readSession>>[] = []
    const reads = await statementsDuring(async () => {
      read = await Promise.all(chats.map(({ sessionId }) => readSession(sessionId)))
    })
    assert.lengthOf(reads, 1, reads.join('\n'))
    assert.deepEqual(read, alone)
    // Each turn gets a state of its own to change.
    assert.notStrictEqual(read[0]!.state, read[1]!.state)

    const statements = await statementsDuring(() =>
      Promise.all(
        chats.map(({ sessionId, resultId }, index) => {
          const state = marked(read[index]!.state, `after-${index}`)
          return persistTurn({
            sessionId,
            state,
            botId,
            workspaceId,
            effects: answerEffects(resultId, `Name ${index}`, botId),
          })
        })
      )
    )
    // The chats' counts go in a statement of their own (countChat).
    const writes = statements.filter((sql) => /answers/.test(sql))
    assert.lengthOf(writes, 1, statements.join('\n'))
    for (const [index, { sessionId, resultId }] of chats.entries()) {
      assert.deepEqual(await answersOf(resultId), [`Name ${index}`])
      const stored = await readSession(sessionId)
      assert.equal((stored!.state as any).currentBlockId, `after-${index}`)
      const result = await db.from('results').where('id', resultId).firstOrFail()
      assert.isTrue(Boolean(result.has_started))
      assert.deepEqual(JSON.parse(result.variables), [
        { id: 'v0', name: 'Name', value: `Name ${index}` },
      ])
    }
  })

  test('a turn whose rows are refused fails alone; the others of its round are written', async ({
    client,
    assert,
  }) => {
    const { botId, workspaceId, chats } = await startedChats(client, 5)
    const before = await readSession(chats[2].sessionId)
    const outcomes = await Promise.allSettled(
      chats.map(async ({ sessionId, resultId }, index) => {
        const session = await readSession(sessionId)
        // The third turn's answer names a result that does not exist (a foreign key refuses it).
        const answered = index === 2 ? 'no-such-result' : resultId
        return persistTurn({
          sessionId,
          state: marked(session!.state, `after-${index}`),
          botId,
          workspaceId,
          effects: answerEffects(answered, `Name ${index}`, botId),
        })
      })
    )
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']
    )
    for (const [index, { sessionId, resultId }] of chats.entries()) {
      const stored = await readSession(sessionId)
      if (index === 2) {
        assert.deepEqual(stored!.state, before!.state)
        assert.deepEqual(await answersOf(resultId), [])
      } else {
        assert.equal((stored!.state as any).currentBlockId, `after-${index}`)
        assert.deepEqual(await answersOf(resultId), [`Name ${index}`])
      }
    }
  })

  test('a text longer than its column is refused in a shared statement, never cut short', async ({
    client,
    assert,
  }) => {
    const { botId, workspaceId, chats } = await startedChats(client, 3)
    const outcomes = await Promise.allSettled(
      chats.map(async ({ sessionId, resultId }, index) => {
        const session = await readSession(sessionId)
        // The second turn's block id is longer than the column holds.
        const blockId = index === 1 ? 'b'.repeat(80) : 'i0'
        return persistTurn({
          sessionId,
          state: marked(session!.state, `after-${index}`),
          botId,
          workspaceId,
          effects: answerEffects(resultId, `Name ${index}`, botId, blockId),
        })
      })
    )
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'rejected', 'fulfilled']
    )
    assert.deepEqual(await answersOf(chats[1].resultId), [])
    assert.deepEqual(await answersOf(chats[2].resultId), ['Name 2'])
  })

  test('two turns of one session in one round are written one after the other, the later last', async ({
    client,
    assert,
  }) => {
    const { botId, workspaceId, chats } = await startedChats(client, 1)
    const { sessionId, resultId } = chats[0]
    const session = await readSession(sessionId)
    const statements = await statementsDuring(() =>
      Promise.all(
        ['first', 'second'].map((name) =>
          persistTurn({
            sessionId,
            state: marked(session!.state, name),
            botId,
            workspaceId,
            effects: answerEffects(resultId, name, botId),
          })
        )
      )
    )
    const writes = statements.filter((sql) => /answers/.test(sql))
    assert.lengthOf(writes, 2, statements.join('\n'))
    assert.equal(((await readSession(sessionId))!.state as any).currentBlockId, 'second')
    assert.deepEqual(await answersOf(resultId), ['first', 'second'])
  })
})
