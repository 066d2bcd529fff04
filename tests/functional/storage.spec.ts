import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import db from '@adonisjs/lucid/services/db'
import S3rver from 's3rver'
import { Disk } from 'flydrive'
import { S3Driver } from 'flydrive/drivers/s3'
import Bot from '#models/bot'
import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import {
  PRIVATE_PRESIGNED_TTL,
  pathFor,
  signedFileUrl,
  storageDisk,
  useStorageDisk,
} from '#services/storage'
import { S3_MISCONFIGURED_MESSAGE, s3DriverOptionsOf } from '#services/storage_config'
import { runWithContext } from '#services/runner_context'
import { definePlugin } from '#plugins/define_plugin'

/**
 * Stored files end to end (docs/security.md, "Storage"): uploads through the chat API's file
 * endpoint, reads through /storage, on the local disk and on a real S3-protocol server
 * (s3rver) that the suite starts. The same tests run on both.
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
  const token = (await new CreateApiToken().handle(user, `storage-${Math.random()}`)).value
  return { user, token, workspaceId: workspace.id }
}

/** A bot asking for a private file, then a public one (visibility Auto). */
const uploadBot = {
  version: '6',
  name: 'Uploads',
  groups: [
    {
      id: 'g1',
      title: 'Uploads',
      graphCoordinates: { x: 0, y: 0 },
      blocks: [
        { id: 'secret', type: 'file input', options: { visibility: 'Private' } },
        { id: 'open', type: 'file input', options: { visibility: 'Auto' } },
      ],
    },
  ],
  events: [{ id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
  edges: [{ id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
  variables: [],
  theme: {},
  settings: {},
}

async function publishUploadBot(client: ApiClient, who: Owner) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, bot: uploadBot })
  imported.assertStatus(201)
  const id = imported.body().bot.id as string
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(who.token)).assertStatus(200)
  return (await Bot.findOrFail(id)) as Bot
}

async function upload(client: ApiClient, sessionId: string, blockId: string, body: string) {
  const response = await client
    .post(`/api/v1/sessions/${sessionId}/files`)
    .field('blockId', blockId)
    .file('file', Buffer.from(body), { filename: `${blockId} notes.txt` })
  response.assertStatus(200)
  return response.body().url as string
}

/** A chat that answered both inputs: the private file's URL, then the public one's. */
async function chatWithFiles(client: ApiClient, bot: Bot) {
  const start = await client.post(`/api/v1/typebots/${bot.publicId}/startChat`).json({})
  start.assertStatus(200)
  const { sessionId, resultId } = start.body()
  const privateUrl = await upload(client, sessionId, 'secret', 'private bytes')
  const answered = await client
    .post(`/api/v1/sessions/${sessionId}/continueChat`)
    .json({ message: { type: 'text', text: privateUrl, attachedFileUrls: [privateUrl] } })
  answered.assertStatus(200)
  const publicUrl = await upload(client, sessionId, 'open', 'public bytes')
  ;(
    await client
      .post(`/api/v1/sessions/${sessionId}/continueChat`)
      .json({ message: { type: 'text', text: publicUrl, attachedFileUrls: [publicUrl] } })
  ).assertStatus(200)
  return { privateUrl, publicUrl, resultId: resultId as string }
}

/** Path and query of an absolute link of this app (the test client prefixes its own host). */
const local = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}
const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice('/storage/'.length))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Driver = 'local disk' | 'S3'

function storageSuite(driver: Driver) {
  test.group(`Storage on ${driver}`, (group) => {
    let who: Owner
    let bot: Bot
    let s3: { server: S3rver; directory: string } | undefined

    group.setup(async () => {
      if (driver === 'S3') {
        const directory = await mkdtemp(join(tmpdir(), 'flowcraft-s3-'))
        const server = new S3rver({
          address: '127.0.0.1',
          port: 0,
          silent: true,
          directory,
          configureBuckets: [{ name: 'uploads', configs: [] }],
        })
        const { port } = await server.run()
        s3 = { server, directory }
        useStorageDisk(
          new Disk(
            new S3Driver(
              s3DriverOptionsOf({
                endpoint: `http://127.0.0.1:${port}`,
                accessKeyId: 'S3RVER',
                secretAccessKey: 'S3RVER',
                bucket: 'uploads',
                region: 'us-east-1',
              })
            )
          )
        )
      }
      who = await owner()
      return async () => {
        useStorageDisk(undefined)
        if (s3) {
          await s3.server.close()
          await rm(s3.directory, { recursive: true, force: true })
        }
      }
    })

    async function theBot(client: ApiClient) {
      if (!bot) bot = await publishUploadBot(client, who)
      return bot
    }

    test('a Private file input keeps its file off every public path (finding 7)', async ({
      client,
      assert,
    }) => {
      const { privateUrl, resultId } = await chatWithFiles(client, await theBot(client))
      // The attack: anyone holding the URL (a leaked log, a forwarded answer) reads the file.
      const anonymous = await client.get(local(privateUrl)).redirects(0)
      anonymous.assertStatus(403)
      assert.notInclude(anonymous.text(), 'private bytes')
      assert.equal(anonymous.header('cache-control'), 'private, no-store')

      const key = keyOf(privateUrl)
      assert.match(key, new RegExp(`^private/workspaces/${who.workspaceId}/results/`))
      assert.include(key, resultId)
      // Nor through a public path that climbs back into the private tree.
      for (const climb of ['..%2F', '%2E%2E%2F', '..%5C']) {
        const sneaky = local(privateUrl).replace(
          '/storage/private/',
          `/storage/public/${climb}private/`
        )
        const refused = await client.get(sneaky).redirects(0)
        assert.oneOf(refused.status(), [403, 404], sneaky)
        assert.notInclude(refused.text(), 'private bytes')
      }
      // Nothing of it under the public tree either.
      const publicTwin = await client.get(
        local(privateUrl).replace('/storage/private/', '/storage/public/')
      )
      publicTwin.assertStatus(404)
      const stored = await storageDisk().listAll('public', { recursive: true })
      for (const entry of stored.objects) {
        if ('key' in entry) assert.notInclude(entry.key, key.split('/').pop()!)
      }
      if (driver === 'local disk') assert.isTrue((await stat(pathFor(key))).isFile())
      else assert.isTrue(await storageDisk().exists(key))
    })

    test('public files are read back by anyone at their URL', async ({ client, assert }) => {
      const { publicUrl } = await chatWithFiles(client, await theBot(client))
      assert.match(keyOf(publicUrl), /^public\/results\//)
      const first = await client.get(local(publicUrl)).redirects(0)
      if (driver === 'S3') {
        first.assertStatus(302)
        assert.match(
          first.header('location') ?? '',
          /^http:\/\/127\.0\.0\.1:\d+\/uploads\/public\//
        )
        assert.equal(first.header('cache-control'), 'public, max-age=300')
      } else first.assertStatus(200)
      const read = await client.get(local(publicUrl))
      read.assertStatus(200)
      assert.equal(read.text(), 'public bytes')
    })

    test('a signed link opens a private file until it expires; tampered links get 403', async ({
      client,
      assert,
    }) => {
      const { privateUrl, publicUrl } = await chatWithFiles(client, await theBot(client))
      const key = keyOf(privateUrl)
      const signed = signedFileUrl(key, '1h')
      assert.match(signed, /\?signature=/)

      const first = await client.get(local(signed)).redirects(0)
      if (driver === 'S3') {
        first.assertStatus(302)
        const location = new URL(first.header('location')!)
        assert.equal(location.pathname, `/uploads/${key}`)
        assert.equal(
          location.searchParams.get('X-Amz-Expires'),
          String(Number.parseInt(PRIVATE_PRESIGNED_TTL))
        )
      } else first.assertStatus(200)
      const read = await client.get(local(signed))
      read.assertStatus(200)
      assert.equal(read.text(), 'private bytes')

      const url = new URL(signed)
      const signature = url.searchParams.get('signature')!
      const flipped = signature.slice(0, -2) + (signature.endsWith('A') ? 'BB' : 'AA')
      const tampered = [
        `${url.pathname}?signature=${encodeURIComponent(flipped)}`,
        `${url.pathname}?signature=`,
        url.pathname,
        // A valid signature of another file does not open this one.
        `${url.pathname}?signature=${encodeURIComponent(new URL(signedFileUrl(`${key}x`)).searchParams.get('signature')!)}`,
        // Nor does a signature made for a public file's key.
        `${url.pathname}?signature=${encodeURIComponent(new URL(signedFileUrl(keyOf(publicUrl))).searchParams.get('signature')!)}`,
      ]
      for (const attempt of tampered) {
        const refused = await client.get(attempt).redirects(0)
        assert.equal(refused.status(), 403, attempt)
        assert.notInclude(refused.text(), 'private bytes')
      }

      const shortLived = signedFileUrl(key, '1s')
      ;(await client.get(local(shortLived))).assertStatus(200)
      await sleep(1100)
      const expired = await client.get(local(shortLived)).redirects(0)
      expired.assertStatus(403)
    })

    test('members of the workspace read private files with their session; others get 403', async ({
      client,
      assert,
    }) => {
      const { privateUrl } = await chatWithFiles(client, await theBot(client))
      const member = await client.get(local(privateUrl)).loginAs(who.user)
      member.assertStatus(200)
      assert.equal(member.text(), 'private bytes')

      const stranger = await createUser()
      const refused = await client.get(local(privateUrl)).loginAs(stranger).redirects(0)
      refused.assertStatus(403)
    })

    test('the results page, CSV export and API hand out fresh signed links', async ({
      client,
      assert,
    }) => {
      const b = await theBot(client)
      const { privateUrl, publicUrl, resultId } = await chatWithFiles(client, b)
      const saved = await db
        .from('answers')
        .where('result_id', resultId)
        .where('block_id', 'secret')
        .first()
      assert.equal(saved.content, privateUrl, 'the stored answer keeps the stable link')

      const page = await client.get(`/api/bots/${b.id}/results`).loginAs(who.user)
      page.assertStatus(200)
      const row = page.body().results.find((r: { id: string }) => r.id === resultId)
      const cell = row.cells.secret as string
      assert.match(cell, /\/storage\/private\/.+\?signature=/)
      assert.equal(row.cells.open, publicUrl)
      const fromPage = await client.get(local(cell))
      fromPage.assertStatus(200)
      assert.equal(fromPage.text(), 'private bytes')

      const detail = await client
        .get(`/api/bots/${b.id}/results/${resultId}/logs`)
        .loginAs(who.user)
      detail.assertStatus(200)
      const answer = detail.body().answers.find((a: { blockId: string }) => a.blockId === 'secret')
      assert.match(answer.attachedFileUrls[0], /\?signature=/)

      const csv = await client
        .post(`/api/bots/${b.id}/results/export`)
        .json({ ids: [resultId] })
        .loginAs(who.user)
        .withCsrfToken()
      csv.assertStatus(200)
      const link = /http:\/\/\S+\/storage\/private\/[^\s",]+\?signature=[^\s",]+/.exec(csv.text())
      assert.exists(link, csv.text())
      assert.equal((await client.get(local(link![0]))).text(), 'private bytes')

      const api = await client.get(`/api/v1/bots/${b.id}/results`).bearerToken(who.token)
      api.assertStatus(200)
      const result = api.body().results.find((r: { id: string }) => r.id === resultId)
      const apiAnswer = result.answers.find((a: { blockId: string }) => a.blockId === 'secret')
      assert.match(apiAnswer.content, /\?signature=/)
      assert.equal((await client.get(local(apiAnswer.content))).text(), 'private bytes')
    })

    test("plugins store private files through their context's storage", async ({
      client,
      assert,
    }) => {
      const plugin = definePlugin({
        id: 'storage-probe',
        name: 'Storage probe',
        fullName: 'Storage probe',
        tags: [],
        category: 'integration',
        scope: 'user',
        version: 1,
        serves: ['bot'],
        options: {},
      })
      let privateUrl = ''
      let publicUrl = ''
      await runWithContext(
        async ({ storage }) => {
          privateUrl = await storage.put(new TextEncoder().encode('%PDF-1.4'), {
            type: 'application/pdf',
            name: 'invoice.pdf',
            visibility: 'private',
          })
          publicUrl = await storage.put(new TextEncoder().encode('png'), { type: 'image/png' })
        },
        { plugin, workspaceId: who.workspaceId, variables: [], options: {} }
      )
      assert.match(keyOf(privateUrl), new RegExp(`^private/workspaces/${who.workspaceId}/files/`))
      ;(await client.get(local(privateUrl)).redirects(0)).assertStatus(403)
      const member = await client.get(local(privateUrl)).loginAs(who.user)
      member.assertStatus(200)
      assert.equal(member.header('content-type'), 'application/pdf')
      ;(await client.get(local(publicUrl))).assertStatus(200)
    })

    if (driver === 'S3') {
      test('presigned bucket URLs stop working when they expire', async ({ assert }) => {
        await storageDisk().put('private/workspaces/w/expiry.txt', new TextEncoder().encode('x'))
        // The signing time is kept to the whole second, so a URL lives between expiresIn - 1
        // and expiresIn seconds; 5 s leaves a loaded machine time for the first fetch.
        const presigned = await storageDisk().getSignedUrl('private/workspaces/w/expiry.txt', {
          expiresIn: '5s',
        })
        assert.equal((await fetch(presigned)).status, 200)
        await sleep(6100)
        assert.equal((await fetch(presigned)).status, 403)
      })
    }
  })
}

storageSuite('local disk')
storageSuite('S3')

test.group('Storage configuration', () => {
  test('the app refuses to boot with part of the S3 settings', async ({ assert }) => {
    // Any command that boots the app; this one reads the database and changes nothing.
    const command = ['--no-node-snapshot', 'ace.js', 'ai:credits', 'nobody@example.com', '0']
    const child = spawn(process.execPath, command, {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        S3_ENDPOINT: 'http://127.0.0.1:9',
        S3_ACCESS_KEY: 'key',
        S3_SECRET_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    assert.notEqual(code, 0)
    assert.include(output.replace(/\s+/g, ' '), S3_MISCONFIGURED_MESSAGE)
  }).timeout(60_000)
})
