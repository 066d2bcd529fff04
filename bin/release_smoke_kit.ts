/*
| The release smoke's tools (bin/release_smoke.ts): its log, the processes and pages it
| started, waiting, child processes in their own groups, pointer drags, and the Typebot
| export it imports and chats with over the API.
*/
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import type { BrowserContext, Locator, Page } from 'playwright'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import type { Server } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright'
import { groupPids } from './process_group.js'

/** Names this run's ids, users and queue prefix apart from any other run's. */
export const TAG = `rs${Date.now().toString(36)}`
export const CHECKOUT = fileURLToPath(new URL('../', import.meta.url))
export const ARTIFACTS =
  process.env.RELEASE_SMOKE_ARTIFACTS || join(CHECKOUT, 'tmp', 'release-smoke')

/** What the run holds open, closed by cleanUp when a step fails or the run ends. */
export const smoke: {
  browser?: Browser
  hostPage?: Server
  workdir: string
  timings: string[]
} = { workdir: '', timings: [] }

export const startedAt = Date.now()
export const seconds = (from: number) => ((Date.now() - from) / 1000).toFixed(1)
export const log = (line: string) => console.log(`[release-smoke +${seconds(startedAt)}s] ${line}`)
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const processes = new Set<ChildProcess>()
export const pages = new Set<Page>()
export class StepError extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StepError(message)
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  ms = 30_000
) {
  const deadline = Date.now() + ms
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await probe()
      if (value) return value
    } catch (error) {
      last = error
    }
    await sleep(250)
  }
  throw new StepError(
    `timed out after ${ms / 1000} s waiting for ${what}${last ? ` (${last})` : ''}`
  )
}

/** What a shell with nothing configured passes on: no NODE_ENV, DB_*, PORT of the caller's. */
export function userEnv(extra: Record<string, string> = {}) {
  const env: Record<string, string> = {}
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'USER', 'SHELL', 'TERM']) {
    if (process.env[name]) env[name] = process.env[name]!
  }
  return { ...env, ...extra }
}

export type Child = ChildProcess & { output: string }

/** Starts a command in its own process group, keeping its output for the log. */
export function launch(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>
): Child {
  const child = spawn(cmd, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  }) as Child
  child.output = ''
  const keep = (chunk: Buffer) => {
    const text = chunk.toString()
    child.output += text
    // The milestones of a start, so a slow build or boot shows where it is.
    for (const line of text.split('\n')) {
      if (
        /^\[start\]|started HTTP server|Sign in as|\[server\]|Working \d+ job types/.test(
          line.trim()
        )
      ) {
        log(`  | ${line.trim()}`)
      }
    }
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  processes.add(child)
  return child
}

export function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    throw new StepError(
      `"${cmd} ${args.join(' ')}" exited ${result.status}:\n${result.stdout}\n${result.stderr}`
    )
  }
  return result.stdout
}

/** SIGTERM to one process; resolves with the seconds until every process of its group is gone. */
export async function terminate(child: Child, limitMs: number) {
  const at = Date.now()
  process.kill(child.pid!, 'SIGTERM')
  await waitUntil(
    `every process of ${child.pid} to exit after SIGTERM`,
    async () => groupPids(child.pid!).length === 0,
    limitMs
  )
  // The processes are gone before Node has read the primary's exit: its exit code is set then.
  if (child.exitCode === null && child.signalCode === null) {
    await waitUntil(
      `the exit of ${child.pid} to be read`,
      async () => child.exitCode !== null || child.signalCode !== null,
      5000
    )
  }
  return (Date.now() - at) / 1000
}

export async function healthy(base: string) {
  const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) })
  return response.status === 200
}

export async function newPage(context: BrowserContext) {
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  pages.add(page)
  return page
}

/** The guided tours start by themselves for a new user: closed as a person would, with Skip. */
export async function skipTours(page: Page) {
  const skip = page.getByTestId('tour-skip')
  if (await skip.isVisible().catch(() => false)) {
    await skip.click()
    await skip.waitFor({ state: 'detached' })
  }
}

/** A pointer drag in small steps: press on one element, release over another. */
export async function pointerDrag(
  page: Page,
  from: Locator,
  to: Locator,
  at?: { x: number; y: number }
) {
  const start = (await from.boundingBox())!
  const end = (await to.boundingBox())!
  check(start && end, 'drag: an element is not on screen')
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2)
  await page.mouse.down()
  await page.mouse.move(end.x + (at ? at.x : end.width / 2), end.y + (at ? at.y : end.height / 2), {
    steps: 15,
  })
  await page.mouse.up()
}

/** A Typebot v6.1 export: a greeting, a question, an answer that repeats it. */
export function typebotExport(publicId: string) {
  const now = new Date().toISOString()
  const text = (id: string, words: string) => ({
    id,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text: words }] }] },
  })
  return {
    version: '6.1',
    id: `${TAG}tb`,
    name: 'Imported from Typebot',
    events: [
      { id: 'ev_start', type: 'start', graphCoordinates: { x: -200, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          text('b1', 'Hi from the imported bot. Your city?'),
          {
            id: 'b2',
            type: 'text input',
            options: { labels: { placeholder: 'Type your answer...' }, variableId: 'v_city' },
            outgoingEdgeId: 'e1',
          },
        ],
      },
      {
        id: 'g2',
        title: 'Answer',
        graphCoordinates: { x: 400, y: 0 },
        blocks: [text('b3', 'Noted: {{City}}.')],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'b2' }, to: { groupId: 'g2' } },
    ],
    variables: [{ id: 'v_city', name: 'City', isSessionVariable: false }],
    theme: {},
    selectedThemeTemplateId: null,
    settings: {},
    createdAt: now,
    updatedAt: now,
    icon: null,
    folderId: null,
    publicId,
    customDomain: null,
    workspaceId: 'typebot-workspace',
    resultsTablePreferences: null,
    isArchived: false,
    isClosed: false,
    whatsAppCredentialsId: null,
    riskLevel: null,
  }
}

export function messageTexts(body: any): string {
  return JSON.stringify(body?.messages ?? [])
}

/** Imports the export through the API, publishes it and has a conversation over the chat API. */
export async function importAndChat(base: string, token: string, publicId: string) {
  const auth = {
    'Authorization': `Bearer ${token}`,
    'Content-Type': 'application/json',
    'Accept': 'application/json',
  }
  const spaces = await (await fetch(`${base}/api/v1/workspaces`, { headers: auth })).json()
  const workspaceId = spaces.workspaces?.[0]?.id
  check(workspaceId, `no workspace for the token: ${JSON.stringify(spaces)}`)
  const imported = await fetch(`${base}/api/v1/typebots/import`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ workspaceId, typebot: typebotExport(publicId) }),
  })
  const importedBody = await imported.text()
  check(imported.status === 200, `import answered ${imported.status}: ${importedBody}`)
  const typebotId = JSON.parse(importedBody).typebot.id
  const published = await fetch(`${base}/api/v1/typebots/${typebotId}/publish`, {
    method: 'POST',
    headers: auth,
  })
  check(published.status === 200, `publish answered ${published.status}: ${await published.text()}`)

  const json = { 'Content-Type': 'application/json', 'Accept': 'application/json' }
  const start = await fetch(`${base}/api/v1/typebots/${publicId}/startChat`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({}),
  })
  const started = await start.json()
  check(start.status === 200, `startChat answered ${start.status}: ${JSON.stringify(started)}`)
  check(
    messageTexts(started).includes('Your city?'),
    `startChat messages: ${messageTexts(started)}`
  )
  const next = await fetch(`${base}/api/v1/sessions/${started.sessionId}/continueChat`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ message: 'Lisbon' }),
  })
  const answered = await next.json()
  check(next.status === 200, `continueChat answered ${next.status}: ${JSON.stringify(answered)}`)
  check(
    messageTexts(answered).includes('Noted: Lisbon.'),
    `continueChat messages: ${messageTexts(answered)}`
  )
  return { workspaceId, typebotId }
}

export async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
  const at = Date.now()
  log(`▶ ${name}`)
  try {
    const value = await body()
    log(`✔ ${name} (${seconds(at)} s)`)
    smoke.timings.push(`${seconds(at).padStart(6)} s  ${name}`)
    return value
  } catch (error) {
    log(`✖ FAILED at step "${name}" after ${seconds(at)} s`)
    console.error(error)
    await saveArtifacts(name)
    await cleanUp()
    log(
      `release smoke FAILED at "${name}" (total ${seconds(startedAt)} s); artifacts in ${ARTIFACTS}`
    )
    process.exit(1)
  }
}

export async function saveArtifacts(stepName: string) {
  mkdirSync(ARTIFACTS, { recursive: true })
  const slug = stepName.replace(/[^a-z0-9]+/gi, '-').toLowerCase()
  let n = 0
  for (const page of pages) {
    if (page.isClosed()) continue
    n += 1
    const path = join(ARTIFACTS, `${slug}-${n}.png`)
    await page.screenshot({ path, fullPage: true }).catch(() => {})
    log(`screenshot: ${path} (${page.url()})`)
  }
  for (const child of processes) {
    const output = (child as any).output as string | undefined
    if (output) writeFileSync(join(ARTIFACTS, `${slug}-pid${child.pid}.log`), output)
  }
}

export async function cleanUp() {
  await smoke.browser?.close().catch(() => {})
  smoke.hostPage?.close()
  for (const child of processes) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {}
    }
  }
  if (smoke.workdir && !process.env.RELEASE_SMOKE_KEEP)
    rmSync(smoke.workdir, { recursive: true, force: true })
}

/**
 * A fresh clone of HEAD with `npm install`, as a new user starts; RELEASE_SMOKE_CLONE reuses a
 * folder as it is (quick local runs, not a release check).
 */
export async function cloneAndInstall() {
  const reuse = process.env.RELEASE_SMOKE_CLONE
  const clone = reuse
    ? reuse
    : await step('fresh clone of HEAD', async () => {
        smoke.workdir = mkdtempSync(join(tmpdir(), 'flowcraft-release-'))
        const dir = join(smoke.workdir, 'flowcraft')
        run('git', ['clone', '--quiet', CHECKOUT, dir], smoke.workdir, userEnv())
        log(`  ${run('git', ['log', '-1', '--format=%h %s'], dir, userEnv()).trim()} in ${dir}`)
        return dir
      })
  if (reuse) log(`RELEASE_SMOKE_CLONE: reusing ${reuse} as it is (not a release check)`)

  if (!reuse) {
    await step('npm install', async () => {
      if (process.env.RELEASE_SMOKE_LINK_MODULES) {
        symlinkSync(join(CHECKOUT, 'node_modules'), join(clone, 'node_modules'))
        log('  RELEASE_SMOKE_LINK_MODULES: node_modules linked from the checkout, not installed')
        return
      }
      run('npm', ['install', '--no-audit', '--no-fund'], clone, userEnv())
    })
  }
  return clone
}

/** An entry's file and the chunks it imports statically: what its page loads up front. */
export function entryScripts(
  manifest: Record<string, { file: string; imports?: string[] }>,
  entry: string
) {
  check(manifest[entry], `${entry} is not in the build's manifest`)
  const files = new Set<string>()
  const queue = [entry]
  while (queue.length) {
    const chunk = manifest[queue.pop()!]
    if (!chunk || files.has(chunk.file)) continue
    files.add(chunk.file)
    queue.push(...(chunk.imports ?? []))
  }
  return [...files]
}
