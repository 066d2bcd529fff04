/*
| npm run test:release: the release smoke (docs/testing.md, "Release smoke").
|
| What the README tells a new user to do, on a fresh clone of this checkout's HEAD: `npm
| install`, `npm start` with nothing configured, the printed sign-in link followed in
| Chromium, then the main journeys of a builder and a visitor on that production server, a
| restart, and a second "scaled" run of the same build: two web processes on PostgreSQL,
| BullMQ with a separate `queue:work` worker, and a SIGTERM that must stop them all.
|
| Settings (all optional):
|   RELEASE_SMOKE_PORT         first of three ports it uses (default 3420: app, host page, scaled app)
|   RELEASE_SMOKE_LINK_MODULES=1   symlink this checkout's node_modules instead of `npm install`
|                              (quick local runs only; CI runs the real install)
|   RELEASE_SMOKE_KEEP=1       keep the temporary clone
|   RELEASE_SMOKE_ARTIFACTS    folder for failure screenshots and server logs (default tmp/release-smoke)
|   RELEASE_SMOKE_DATABASE_URL PostgreSQL database the scaled smoke drops and recreates
|                              (default postgres://root@127.0.0.1:5432/release_smoke)
|   REDIS_URL                  Redis for the scaled smoke (default redis://127.0.0.1:6379)
*/
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchChromium } from '../tests/chromium.js'
import { groupPids } from './process_group.js'
import {
  startedAt,
  seconds,
  log,
  check,
  waitUntil,
  userEnv,
  type Child,
  launch,
  run,
  terminate,
  healthy,
  newPage,
  skipTours,
  pointerDrag,
  importAndChat,
  CHECKOUT,
  TAG,
  smoke,
  step,
  cleanUp,
  cloneAndInstall,
  entryScripts,
} from './release_smoke_kit.js'

const BASE_PORT = Number(process.env.RELEASE_SMOKE_PORT || 3420)
const APP_PORT = BASE_PORT
const HOST_PAGE_PORT = BASE_PORT + 1
const SCALED_PORT = BASE_PORT + 2
const APP = `http://localhost:${APP_PORT}`
const DATABASE_URL =
  process.env.RELEASE_SMOKE_DATABASE_URL || 'postgres://root@127.0.0.1:5432/release_smoke'
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'

// ---------------------------------------------------------------------------------------------

log(`release smoke of ${CHECKOUT} (ports ${APP_PORT}-${SCALED_PORT})`)

const clone = await cloneAndInstall()

let signinLink = ''
let server: Child
async function npmStart(firstRun: boolean) {
  // Another server on the port (a run stopped half-way) would answer for this one.
  const taken = await healthy(APP).catch(() => false)
  check(!taken, `something already answers on ${APP}: stop it first`)
  server = launch('npm', ['start'], clone, userEnv({ PORT: String(APP_PORT) }))
  await waitUntil(
    'the server to answer /health',
    async () => {
      check(server.exitCode === null, `npm start exited ${server.exitCode}:\n${server.output}`)
      return healthy(APP)
    },
    // A quiet 2-core machine builds in about a minute; a loaded one can take ten times that.
    firstRun ? 1_500_000 : 300_000
  )
  // The link also appears inside JSON log lines, where the text after it starts with "\n".
  const links = [...server.output.matchAll(/(https?:\/\/[^\s"\\]+\/auth\/magic\/[^\s"\\]+)/g)]
  if (firstRun) {
    check(links.length > 0, `no sign-in link printed:\n${server.output}`)
    signinLink = links.at(-1)![1]
    log(`  sign-in link printed: ${signinLink.replace(/magic\/.*/, 'magic/…')}`)
  }
}

await step('npm start with nothing configured (build, migrate, serve)', () => npmStart(true))

await step("React's production build on the dashboard, Preact on the visitor's page", async () => {
  const assets = join(clone, 'build', 'public', 'assets')
  type Chunk = { file: string; imports?: string[] }
  const manifest: Record<string, Chunk> = JSON.parse(
    readFileSync(join(assets, '.vite', 'manifest.json'), 'utf8')
  )
  const scriptsOf = (entry: string) => entryScripts(manifest, entry)
  const served = async (file: string) => {
    const response = await fetch(`${APP}/assets/${file}`)
    check(response.status === 200, `/assets/${file} answered ${response.status}`)
    return response.text()
  }
  const reactErrorCodes = /react\.dev\/errors\/|Minified React error/
  // The dashboard: React DOM in its production build (no development act() warnings).
  let react: { file: string; code: string } | undefined
  for (const file of scriptsOf('resources/app.tsx')) {
    const code = await served(file)
    if (reactErrorCodes.test(code)) react = { file, code }
  }
  check(react, "no dashboard chunk has React DOM's minified error codes")
  check(
    !react.code.includes('not wrapped in act('),
    `${react.file} carries React's development act() warnings`
  )
  log(`  /assets/${react.file}: ${(react.code.length / 1024).toFixed(0)} KB, production React`)
  // The visitor's page renders with Preact (vite.config.ts, visitorBuild): React DOM in one
  // of its chunks would put about 60 KB brotli back on every visitor's phone.
  const visitor = scriptsOf('resources/viewer.tsx')
  for (const file of visitor) {
    check(!reactErrorCodes.test(await served(file)), `${file} (the visitor's page) has React DOM`)
  }
  log(`  the visitor's page: ${visitor.join(', ')}, no React DOM`)
})

smoke.browser = await step('Chromium', () => launchChromium())
const builder = await smoke.browser.newContext({
  baseURL: APP,
  viewport: { width: 1440, height: 900 },
  acceptDownloads: true,
})
const page = await newPage(builder)

await step('follow the printed sign-in link; skip the guided tour', async () => {
  await page.goto(signinLink)
  await page.waitForURL(/\/bots$/)
  await page.getByTestId('tour-skip').waitFor({ timeout: 15_000 })
  await skipTours(page)
})

await step('create a bot from a template', async () => {
  await page.getByTestId('create-bot').first().click()
  await page.getByTestId('create-from-template').click()
  const gallery = page.getByTestId('template-gallery')
  await gallery.getByTestId('template-quiz').click()
  await gallery.getByTestId('template-preview').getByText('What is your name, astronaut?').waitFor()
  await gallery.getByTestId('use-template').click()
  await page.waitForURL(/\/bots\/[a-z0-9]+\/edit$/)
  await page.getByTestId('group-node').filter({ hasText: 'Question 2' }).first().waitFor()
  await skipTours(page)
})

const scratch = await step('create a bot from scratch', async () => {
  await page.goto('/bots')
  await skipTours(page)
  await page.getByTestId('create-bot').first().click()
  await page.getByTestId('create-from-scratch').click()
  await page.getByTestId('new-bot-name').fill('Smoke signup')
  await page.getByTestId('create-bot-submit').click()
  await page.waitForURL(/\/bots\/[a-z0-9]+\/edit$/)
  return { id: new URL(page.url()).pathname.split('/')[2] }
})

await step(
  'edit it: drag blocks from the sidebar, connect the start by dragging its handle',
  async () => {
    const canvas = page.getByTestId('editor-canvas')
    await canvas.waitFor()
    await skipTours(page)
    // Below and left of the start event, so its handle stays free for the connection.
    await pointerDrag(page, page.getByTestId('sidebar-block-text'), canvas, { x: 360, y: 560 })
    const group = page.getByTestId('group-node').first()
    await group.waitFor()
    const bubble = page.getByTestId('text-bubble-input')
    // A new text bubble opens its editor; should it not, a click on the block does.
    if (
      !(await bubble.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false
      ))
    ) {
      await group.getByTestId('block-item').first().click()
      await bubble.waitFor()
    }
    await bubble.fill('Welcome to the smoke test. What is your name?')
    await page.keyboard.press('Escape')
    // Dropped at the foot of the group, after the bubble (its middle would put it before).
    const groupBox = (await group.boundingBox())!
    await pointerDrag(page, page.getByTestId('sidebar-block-text-input'), group, {
      x: groupBox.width / 2,
      y: groupBox.height - 8,
    })
    await waitUntil(
      'the text input in the group',
      async () => (await group.getByTestId('block-item').count()) === 2
    )
    await pointerDrag(page, page.getByTestId('event-handle'), group, { x: 150, y: 22 })
    await page.locator('.react-flow__edge').first().waitFor()
    await page
      .getByTestId('save-status')
      .getByText(/saved/i)
      .waitFor()
      .catch(() => {})
  }
)

const publicId = await step('publish it', async () => {
  await page.getByTestId('publish').click()
  await page.getByTestId('publish').getByText('Published').waitFor()
  const input = page.getByTestId('public-id-input')
  // A click landing while the header re-renders after the publish can be lost: a person
  // clicks again.
  await waitUntil('the share popover', async () => {
    if (!(await input.isVisible())) await page.getByTestId('share-button').click()
    return input.waitFor({ timeout: 3000 }).then(
      () => true,
      () => false
    )
  })
  let id = await input.inputValue()
  if (!id) {
    id = `${TAG}-signup`
    await input.fill(id)
    await page.getByTestId('public-id-save').click()
    await waitUntil('the public id saved', async () => (await input.inputValue()) === id)
  }
  await page.keyboard.press('Escape')
  await waitUntil('the public page', async () => (await fetch(`${APP}/${id}`)).status === 200)
  return id
})

await step('chat on the public page, signed out', async () => {
  const visitor = await smoke.browser!.newContext()
  const chat = await newPage(visitor)
  await chat.goto(`${APP}/${publicId}`)
  await chat.getByText('Welcome to the smoke test. What is your name?').waitFor()
  await chat.getByRole('textbox').fill('Ada Visitor')
  await chat.getByRole('button', { name: 'Send' }).click()
  await chat.getByText('Ada Visitor').waitFor()
  await visitor.close()
})

await step('chat through /embed.js on another origin', async () => {
  const html = `<!doctype html><html><body><h1>A customer site</h1>
    <div id="inline" style="width: 600px; height: 500px"></div>
    <script src="${APP}/embed.js"></script>
    <script>Flowcraft.initStandard({ publicId: ${JSON.stringify(publicId)}, element: '#inline' })</script>
    </body></html>`
  smoke.hostPage = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html)
  )
  await new Promise<void>((resolve) => smoke.hostPage!.listen(HOST_PAGE_PORT, '127.0.0.1', resolve))
  const visitor = await smoke.browser!.newContext()
  const site = await newPage(visitor)
  await site.goto(`http://127.0.0.1:${HOST_PAGE_PORT}/`)
  const frame = site.frameLocator('#inline iframe')
  await frame.getByText('Welcome to the smoke test. What is your name?').waitFor()
  await frame.getByRole('textbox').fill('Bob Embedded')
  await frame.getByRole('button', { name: 'Send' }).click()
  await frame.getByText('Bob Embedded').waitFor()
  await visitor.close()
})

await step('the answers in Results and in the CSV export', async () => {
  await page.goto(`/bots/${scratch.id}/results`)
  await page.getByTestId('results-table').waitFor()
  await waitUntil(
    'two result rows',
    async () => (await page.getByTestId('result-row').count()) >= 2
  )
  await page.getByText('Ada Visitor').first().waitFor()
  await page.getByText('Bob Embedded').first().waitFor()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('results-export').click(),
  ])
  const csv = readFileSync((await download.path())!, 'utf8')
  check(
    csv.includes('Ada Visitor') && csv.includes('Bob Embedded'),
    `the CSV lacks the answers:\n${csv}`
  )
})

const token = await step('an API token, created in Account settings', async () => {
  await page.goto('/settings/account/keys')
  await page.getByTestId('create-token').click()
  await page.getByTestId('token-name').fill('release smoke')
  await page.getByTestId('token-submit').click()
  const value = (await page.getByTestId('created-token-value').innerText()).trim()
  check(value.length > 10, 'no token shown')
  return value
})

await step('import a Typebot v6.1 export through the API and chat over the chat API', () =>
  importAndChat(APP, token, `${TAG}-imported`)
)

const workflowId = await step(
  'create a workflow in the editor: add nodes, connect by dragging',
  async () => {
    await page.goto('/workflows')
    await skipTours(page)
    await page.getByTestId('create-workflow').first().click()
    await page.waitForURL(/\/workflows\/[^/]+$/)
    await page.getByTestId('workflow-canvas').waitFor()
    await skipTours(page)
    const id = new URL(page.url()).pathname.split('/')[2]
    const node = (type: string) =>
      page.locator(`[data-testid="workflow-node"][data-node-type="${type}"]`)
    const closeSettings = async () => {
      if (await page.getByTestId('node-settings').isVisible()) {
        await page.getByTestId('node-settings-close').click()
        await page.getByTestId('node-settings').waitFor({ state: 'detached' })
      }
    }
    await page.getByTestId('palette-node-webhook-trigger').click()
    await node('webhook-trigger').waitFor()
    await closeSettings()
    await page.getByTestId('palette-node-respond-to-webhook').click()
    await node('respond-to-webhook').waitFor()
    await closeSettings()
    // The palette places a new node after the selected one and may link them already: the
    // edge is drawn by hand only when it is missing.
    if ((await page.locator('.react-flow__edge').count()) === 0) {
      await pointerDrag(
        page,
        node('webhook-trigger').getByTestId('node-handle-out'),
        node('respond-to-webhook').getByTestId('node-handle-in')
      )
    }
    // A straight edge between nodes on one line has no height: Playwright calls it hidden.
    await page.locator('.react-flow__edge').first().waitFor({ state: 'attached' })
    return id
  }
)

await step('test-run the workflow from the editor with a sample payload', async () => {
  await page.getByTestId('workflow-run-sample').click()
  await page.getByTestId('test-run-payload').fill('{ "order": 7 }')
  await page.getByTestId('test-run-start').click()
  for (const type of ['webhook-trigger', 'respond-to-webhook']) {
    await page
      .locator(`[data-testid="workflow-node"][data-node-type="${type}"][data-run-status="success"]`)
      .waitFor({ timeout: 30_000 })
  }
})

await step('publish, switch on, call its webhook, see the run in the history', async () => {
  await page.getByTestId('workflow-publish').click()
  await waitUntil(
    'the workflow published',
    async () => (await page.getByTestId('workflow-status').getAttribute('data-status')) !== 'DRAFT'
  )
  await page.getByTestId('workflow-active').click()
  await waitUntil(
    'the workflow switched on',
    async () => (await page.getByTestId('workflow-active').getAttribute('aria-checked')) === 'true'
  )
  const called = await fetch(`${APP}/api/v1/workflows/${workflowId}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order: 8 }),
  })
  check(called.status < 300, `the webhook answered ${called.status}: ${await called.text()}`)
  await page.getByTestId('workflow-runs-link').click()
  await page.waitForURL(new RegExp(`/workflows/${workflowId}/runs`))
  await waitUntil(
    'a successful run in the history',
    async () => {
      await page.reload()
      await page.getByTestId('run-row').first().waitFor()
      return (await page.locator('[data-testid="run-row"][data-status="success"]').count()) >= 1
    },
    60_000
  )
})

await step('a knowledge store: add text, search it', async () => {
  await page.goto('/vectors')
  await skipTours(page)
  await page.getByTestId('create-store').first().click()
  await page.getByTestId('store-name').fill('Smoke facts')
  await page.getByTestId('store-name').press('Enter')
  await page.waitForURL(/\/vectors\/[a-z0-9]+$/)
  await page
    .getByTestId('source-text')
    .fill('The cafeteria serves pancakes on Fridays.\n\nThe library closes at six.')
  await page.getByTestId('add-text-source').click()
  await page
    .locator('[data-testid="source-status"][data-status="COMPLETED"]')
    .waitFor({ timeout: 60_000 })
  await page.getByTestId('store-search').fill('pancakes')
  await page.getByTestId('store-search').press('Enter')
  await page
    .getByTestId('search-hit')
    .first()
    .getByText(/serves pancakes on Fridays/)
    .first()
    .waitFor()
})

await step('stop npm start (SIGTERM) and start it again', async () => {
  const took = await terminate(server, 20_000)
  log(`  npm start stopped ${took.toFixed(1)} s after SIGTERM`)
  await npmStart(false)
})

await step(
  'after the restart: bots, results, runs, knowledge and the public bot are kept',
  async () => {
    await page.goto('/bots')
    await page.getByText('Smoke signup').first().waitFor()
    await page.getByText('Space quiz').first().waitFor()
    await page.goto(`/bots/${scratch.id}/results`)
    await page.getByText('Bob Embedded').first().waitFor()
    await page.goto(`/workflows/${workflowId}/runs`)
    await page.locator('[data-testid="run-row"][data-status="success"]').first().waitFor()
    await page.goto('/vectors')
    await page.getByTestId('store-card').getByText('Smoke facts').first().waitFor()
    const visitor = await smoke.browser!.newContext()
    const chat = await newPage(visitor)
    await chat.goto(`${APP}/${publicId}`)
    await chat.getByText('Welcome to the smoke test. What is your name?').waitFor()
    await visitor.close()
  }
)

await step('stop the server', async () => {
  await smoke.browser!.close()
  smoke.browser = undefined
  smoke.hostPage?.close()
  const took = await terminate(server, 20_000)
  log(`  stopped ${took.toFixed(1)} s after SIGTERM`)
})

// --- The scaled smoke: the same build, two web processes, PostgreSQL, BullMQ and a worker. ---

const scaledEnv = userEnv({
  PORT: String(SCALED_PORT),
  WEB_CONCURRENCY: '2',
  DB_CONNECTION: 'pg',
  DATABASE_URL,
  QUEUE_DRIVER: 'bullmq',
  REDIS_URL,
  QUEUE_PREFIX: `release_smoke_${TAG}`,
})
const SCALED = `http://localhost:${SCALED_PORT}`
const node = process.execPath

await step('scaled: a fresh PostgreSQL database, migrated and seeded from the build', async () => {
  const url = new URL(DATABASE_URL)
  const name = url.pathname.slice(1)
  check(/^[a-z0-9_]+$/.test(name), `unexpected database name ${name}`)
  // pg ships no type declarations; the smoke uses one query of it.
  const { default: pg } = await import('pg' as string)
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).href,
  })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  run(node, ['--no-node-snapshot', 'build/ace.js', 'migration:run', '--force'], clone, scaledEnv)
  run(node, ['--no-node-snapshot', 'build/ace.js', 'db:seed'], clone, scaledEnv)
})

let scaled: Child
let worker: Child
await step('scaled: WEB_CONCURRENCY=2 server and a queue:work worker', async () => {
  worker = launch(node, ['--no-node-snapshot', 'build/ace.js', 'queue:work'], clone, scaledEnv)
  scaled = launch(node, ['--no-node-snapshot', 'build/bin/server.js'], clone, scaledEnv)
  await waitUntil(
    'the scaled server',
    async () => {
      check(scaled.exitCode === null, `the server exited:\n${scaled.output}`)
      check(worker.exitCode === null, `the worker exited:\n${worker.output}`)
      return healthy(SCALED)
    },
    120_000
  )
  await waitUntil(
    'the worker to work the queue',
    async () => /Working \d+ job types/.test(worker.output),
    60_000
  )
  const pids = groupPids(scaled.pid!)
  check(pids.length >= 3, `expected a primary and two web processes, found ${pids.join(', ')}`)
})

await step('scaled: a bot chat end to end', async () => {
  const out = run(
    node,
    ['--no-node-snapshot', 'build/ace.js', 'user:token', 'scaled@example.com'],
    clone,
    scaledEnv
  )
  // The token is the command's one plain line; log lines (JSON) may follow it.
  const scaledToken = out
    .trim()
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('{'))
    .at(-1)!
    .trim()
  const { workspaceId } = await importAndChat(SCALED, scaledToken, `${TAG}-scaled`)
  return Object.assign(globalThis, { scaledToken, scaledWorkspace: workspaceId })
})

await step('scaled: a webhook workflow run on the worker', async () => {
  const { scaledToken, scaledWorkspace } = globalThis as any
  const auth = {
    'Authorization': `Bearer ${scaledToken}`,
    'Content-Type': 'application/json',
    'Accept': 'application/json',
  }
  const workflow = {
    name: 'Scaled webhook',
    blocks: [
      {
        id: 'hook',
        type: 'webhook-trigger',
        graphCoordinates: { x: 0, y: 0 },
        options: { method: 'POST' },
      },
      {
        id: 'calc',
        type: 'workflow-script',
        graphCoordinates: { x: 300, y: 0 },
        options: { code: 'return { doubled: input.body.n * 2 }' },
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'hook' }, to: { blockId: 'calc' } }],
    variables: [],
    settings: {},
  }
  const created = await fetch(`${SCALED}/api/v1/workflows`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ workspaceId: scaledWorkspace, workflow }),
  })
  const body = await created.json()
  check(created.status === 201, `create answered ${created.status}: ${JSON.stringify(body)}`)
  const id = body.workflow.id
  for (const action of ['publish', 'activate']) {
    const answer = await fetch(`${SCALED}/api/v1/workflows/${id}/${action}`, {
      method: 'POST',
      headers: auth,
    })
    check(answer.status === 200, `${action} answered ${answer.status}: ${await answer.text()}`)
  }
  const called = await fetch(`${SCALED}/api/v1/workflows/${id}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ n: 21 }),
  })
  const { runId } = await called.json()
  check(called.status === 202 && runId, `the webhook answered ${called.status}`)
  const finished = await waitUntil(
    'the run to finish on the worker',
    async () => {
      const { run: r } = await (
        await fetch(`${SCALED}/api/v1/runs/${runId}`, { headers: auth })
      ).json()
      return ['success', 'error', 'cancelled'].includes(r?.status) && r
    },
    60_000
  )
  check(
    finished.status === 'success',
    `the run ended ${finished.status}: ${JSON.stringify(finished)}`
  )
  check(
    JSON.stringify(finished).includes('"doubled":42'),
    `the run lacks its output: ${JSON.stringify(finished)}`
  )
})

await step('scaled: SIGTERM to the primary stops every web process within 15 s', async () => {
  const took = await terminate(scaled, 15_000)
  check(scaled.exitCode === 0, `the primary exited ${scaled.exitCode ?? scaled.signalCode}`)
  log(`  primary and web processes gone ${took.toFixed(1)} s after SIGTERM`)
  const workerTook = await terminate(worker, 15_000)
  log(`  worker gone ${workerTook.toFixed(1)} s after SIGTERM`)
})

await cleanUp()
log('step times:')
for (const line of smoke.timings) console.log(`  ${line}`)
log(`release smoke PASSED in ${seconds(startedAt)} s`)
process.exit(0)
