import { test } from '@japa/runner'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import db from '@adonisjs/lucid/services/db'
import app from '@adonisjs/core/services/app'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { forgetChatLimits } from '#services/chat/chat_runtime'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { stopProcessGroup } from './app_process.js'

/**
 * The monthly chat limit holds exactly, whatever arrives at once and whichever process
 * counts (docs/security.md, "Plan limits"). A chat counts at its first answer: a start
 * with a message, or the first continueChat.
 */

function askName() {
  return {
    version: '6',
    name: 'Ask',
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          { id: 'b1', type: 'text input', options: { variableId: 'v1' }, outgoingEdgeId: 'e1' },
        ],
      },
      {
        id: 'g2',
        title: 'Group #2',
        graphCoordinates: { x: 300, y: 0 },
        blocks: [
          {
            id: 'b2',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hello {{Name}}' }] }] },
          },
        ],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'b1' }, to: { groupId: 'g2' } },
    ],
    variables: [{ id: 'v1', name: 'Name' }],
    theme: {},
    settings: {},
  }
}

async function publishedBot(client: any, plan: User['plan'] = 'FREE') {
  const user = await createUser()
  await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `limit-${Date.now()}`)).value
  const created = await client
    .post('/api/v1/bots')
    .bearerToken(token)
    .json({ workspaceId: workspace.id, bot: askName() })
  created.assertStatus(201)
  const botId = created.body().bot.id
  const published = await client.post(`/api/v1/bots/${botId}/publish`).bearerToken(token)
  published.assertStatus(200)
  forgetChatLimits()
  return { botId, workspaceId: workspace.id, publicId: published.body().bot.publicId as string }
}

const period = () => new Date().toISOString().slice(0, 7)

async function usage(workspaceId: string) {
  const row = await db.from('chat_usage').where({ workspace_id: workspaceId, period: period() })
  return Number(row[0]?.chats ?? 0)
}

async function startedResults(botId: string) {
  const rows = await db
    .from('results')
    .where({ bot_id: botId, has_started: true })
    .count('* as total')
  return Number(rows[0].total)
}

async function answers(botId: string) {
  const rows = await db
    .from('answers')
    .join('results', 'results.id', 'answers.result_id')
    .where('results.bot_id', botId)
    .count('* as total')
  return Number(rows[0].total)
}

/** Sends `count` requests, at most `width` at a time (the test client's sockets). */
async function inParallel<T>(count: number, width: number, send: (i: number) => Promise<T>) {
  const replies: T[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++
        replies[i] = await send(i)
      }
    })
  )
  return replies
}

const isChat = (body: any) => !body.chatLimitExceededError && body.messages?.length > 0

test.group('Chat limit of the month', () => {
  test('300 concurrent starts with a first answer on a 200-chat plan: exactly 200 chats', async ({
    client,
    assert,
  }) => {
    const bot = await publishedBot(client, 'FREE')
    const replies = await inParallel(300, 100, () =>
      client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({ message: 'Ada' })
    )
    for (const reply of replies) reply.assertStatus(200)
    const chats = replies.filter((reply) => isChat(reply.body()))
    const refused = replies.filter((reply) => reply.body().chatLimitExceededError)
    assert.lengthOf(chats, 200)
    assert.lengthOf(refused, 100)
    for (const reply of refused) {
      assert.deepEqual(reply.body().messages, [])
      assert.equal(reply.body().sessionId, '')
    }
    assert.equal(await usage(bot.workspaceId), 200)
    assert.equal(await startedResults(bot.botId), 200)
    assert.equal(await answers(bot.botId), 200)
  })

  test('sessions started before the limit: only the places left go to their first answers', async ({
    client,
    assert,
  }) => {
    const bot = await publishedBot(client, 'FREE')
    await db
      .table('chat_usage')
      .insert({ workspace_id: bot.workspaceId, period: period(), chats: 180 })
    forgetChatLimits()
    // Starting without an answer counts nothing: 60 sessions open.
    const starts = await inParallel(60, 30, () =>
      client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
    )
    const sessions = starts.map((reply) => reply.body().sessionId as string)
    assert.lengthOf(new Set(sessions.filter(Boolean)), 60)
    assert.equal(await usage(bot.workspaceId), 180)

    const replies = await inParallel(60, 60, (i) =>
      client.post(`/api/v1/sessions/${sessions[i]}/continueChat`).json({ message: 'Ada' })
    )
    const chats = replies.filter((reply) => isChat(reply.body()))
    assert.lengthOf(chats, 20)
    assert.equal(await usage(bot.workspaceId), 200)
    assert.equal(await startedResults(bot.botId), 20)
    assert.equal(await answers(bot.botId), 20)

    // A refused session is left as it was: it goes on once there is room again.
    const refused = sessions.filter((_, i) => !isChat(replies[i].body()))
    await db.from('chat_usage').where('workspace_id', bot.workspaceId).update({ chats: 199 })
    const later = await client
      .post(`/api/v1/sessions/${refused[0]}/continueChat`)
      .json({ message: 'Grace' })
    assert.isTrue(isChat(later.body()), JSON.stringify(later.body()))
    assert.equal(await usage(bot.workspaceId), 200)
  })

  test('two server processes sharing the database count 200 of 300 chats', async ({
    client,
    assert,
  }) => {
    // SQLite too: both processes open the same file (WAL, busy_timeout).
    const bot = await publishedBot(client, 'FREE')
    const other = await startSecondServer()
    try {
      const replies = await inParallel(300, 100, async (i) => {
        const url = i % 2 === 0 ? other.url : `http://127.0.0.1:${process.env.PORT}`
        const response = await fetch(`${url}/api/v1/typebots/${bot.publicId}/startChat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Ada' }),
        })
        assert.equal(response.status, 200)
        return response.json()
      })
      const chats = replies.filter(isChat)
      assert.lengthOf(chats, 200)
      assert.equal(await usage(bot.workspaceId), 200)
      assert.equal(await startedResults(bot.botId), 200)
    } finally {
      await other.stop()
    }
  }).timeout(120_000)
})

/** A port nobody listens on (the system's pick for port 0). */
async function freePort() {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

/** The same app in a process of its own, on a free port, against the same database. */
async function startSecondServer() {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    ['--no-node-snapshot', '--import=ts-node-maintained/register/esm', 'bin/server.ts'],
    {
      cwd: app.makePath(),
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }
  )
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`second server did not start:\n${output}`)),
      90_000
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('started HTTP server')) {
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${port}`)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`second server exited (${code}):\n${output}`))
    })
  })
  return {
    url,
    async stop() {
      await stopProcessGroup(child)
    },
  }
}
