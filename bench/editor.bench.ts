/*
| npm run bench -- editor
| Opens a generated 300-group / 2,000-block bot in the editor (production build, headless
| Chromium) and measures the time until the canvas is interactive, then frame times while
| dragging a group and while panning. Aim: open < 1.5 s, >= 50 fps.
*/
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync, copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchChromium } from '../tests/chromium.js'
import type { BenchReport } from './run.ts'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'

const ROOT = join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 3350)
const BASE = `http://127.0.0.1:${PORT}`
const DB = join(ROOT, 'tmp/bench-editor.sqlite3')
/*
| A private production build, so this bench neither wipes nor races `build/` (which other
| benches and deploy scripts use) and always measures the code of the working tree.
*/
const OUT = join(ROOT, 'tmp/bench-editor-build')

function env() {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    APP_URL: BASE,
    DB_CONNECTION: 'sqlite',
    SQLITE_PATH: DB,
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
  }
}

function ace(args: string[]) {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
    cwd: OUT,
    env: env(),
    encoding: 'utf8',
  })
  if (result.status !== 0)
    throw new Error(`ace ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`)
  return result.stdout
}

/** 300 groups of about 6.7 blocks (2,000 in all), chained by edges. */
export function generateBot(groupCount = 300, blockCount = 2000) {
  const groups = []
  const edges = []
  let made = 0
  for (let g = 0; g < groupCount; g++) {
    const blocks = []
    const inGroup = Math.round(((g + 1) * blockCount) / groupCount) - made
    for (let b = 0; b < inGroup; b++) {
      const id = `b${g}x${b}`
      blocks.push(
        b % 2 === 0
          ? {
              id,
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: `Message ${g}.${b}` }] }] },
            }
          : { id, type: 'text input', options: { labels: { placeholder: 'Type your answer...' } } }
      )
    }
    made += inGroup
    groups.push({
      id: `g${g}`,
      title: `Group #${g + 1}`,
      graphCoordinates: { x: (g % 20) * 420, y: Math.floor(g / 20) * 600 },
      blocks,
    })
  }
  for (let g = 0; g < groupCount - 1; g++) {
    const last = groups[g].blocks.at(-1)! as any
    last.outgoingEdgeId = `e${g}`
    edges.push({ id: `e${g}`, from: { blockId: last.id }, to: { groupId: `g${g + 1}` } })
  }
  edges.push({ id: 'estart', from: { eventId: 'start' }, to: { groupId: 'g0' } })
  return {
    version: '6',
    name: 'Benchmark bot',
    groups,
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: -300, y: 0 }, outgoingEdgeId: 'estart' },
    ],
    edges,
    variables: [],
    theme: {},
    settings: {},
  }
}

/**
 * What `node ace build` does (vite build, tsc, meta files, ace.js), into OUT. Modules
 * resolve from the repository's node_modules because OUT lives inside the repository.
 */
function build() {
  rmSync(OUT, { recursive: true, force: true })
  const step = (args: string[]) => {
    const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' })
    return result.status === 0
  }
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js')
  if (!step([vite, 'build', '--logLevel', 'warn', '--outDir', join(OUT, 'public/assets')]))
    throw new Error('vite build failed')
  // tsc still emits when a file being edited elsewhere has a type error; the server is what counts.
  step([join(ROOT, 'node_modules/typescript/bin/tsc'), '--outDir', OUT])
  if (!existsSync(join(OUT, 'bin/server.js'))) throw new Error('tsc emitted no server')
  for (const dir of ['resources/views', 'resources/lang', 'resources/embed', 'database/templates'])
    if (existsSync(join(ROOT, dir))) cpSync(join(ROOT, dir), join(OUT, dir), { recursive: true })
  mkdirSync(join(OUT, 'public'), { recursive: true })
  cpSync(join(ROOT, 'public'), join(OUT, 'public'), {
    recursive: true,
    filter: (src) => !src.startsWith(join(ROOT, 'public/assets')),
  })
  copyFileSync(join(ROOT, 'package.json'), join(OUT, 'package.json'))
  writeFileSync(join(OUT, 'ace.js'), "await import('./bin/console.js')\n")
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export async function run(): Promise<BenchReport> {
  if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(join(OUT, 'bin/server.js'))) build()
  ensureEnvFile(ROOT)
  copyFileSync(join(ROOT, '.env'), join(OUT, '.env'))
  for (const file of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(file, { force: true })
  ace(['migration:run', '--force'])
  ace(['db:seed'])
  const email = `bench-${Date.now()}@example.com`
  const token = ace(['user:token', email, '--name', 'bench']).trim().split('\n').at(-1)!.trim()
  const link = /https?:\/\/\S+\/auth\/magic\/[a-f0-9]+/.exec(ace(['user:signin-link', email]))![0]

  const server = spawn(process.execPath, ['--no-node-snapshot', 'bin/server.js'], {
    cwd: OUT,
    env: env(),
    stdio: 'ignore',
  })
  const browser = await launchChromium()
  try {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${BASE}/health`)).ok) break
      } catch {}
      await new Promise((r) => setTimeout(r, 100))
    }
    const me = await (
      await fetch(`${BASE}/api/v1/workspaces`, { headers: { authorization: `Bearer ${token}` } })
    ).json()
    const created = await fetch(`${BASE}/api/v1/bots`, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspaceId: me.workspaces[0].id, bot: generateBot() }),
    })
    if (!created.ok) throw new Error(`could not create the bot: ${await created.text()}`)
    const botId = (await created.json()).bot.id

    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    await page.goto(link)
    // Warm the asset cache once, as a returning builder has it.
    await page.goto(`${BASE}/bots/${botId}/edit`)
    await page.getByTestId('group-node').first().waitFor({ timeout: 60_000 })

    const opens: number[] = []
    const ttfbs: number[] = []
    const dcls: number[] = []
    let pageBytes = 0
    for (let i = 0; i < 3; i++) {
      const started = Date.now()
      await page.goto(`${BASE}/bots/${botId}/edit`)
      await page.getByTestId('group-node').first().waitFor({ timeout: 60_000 })
      await page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      )
      opens.push(Date.now() - started)
      const timing = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
        return {
          ttfb: nav.responseStart,
          bytes: nav.transferSize,
          dcl: nav.domContentLoadedEventEnd,
        }
      })
      ttfbs.push(timing.ttfb)
      pageBytes = timing.bytes
      dcls.push(timing.dcl)
    }

    const measure = async (action: () => Promise<void>) => {
      await page.evaluate(() => {
        const w = window as any
        w.__frames = []
        w.__measuring = true
        const tick = (t: number) => {
          w.__frames.push(t)
          if (w.__measuring) requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      })
      await action()
      const frames: number[] = await page.evaluate(() => {
        const w = window as any
        w.__measuring = false
        return w.__frames
      })
      const gaps = frames.slice(1).map((t, i) => t - frames[i])
      const duration = frames.at(-1)! - frames[0]
      return {
        fps: Math.round((gaps.length / duration) * 1000 * 10) / 10,
        p95: Math.round(percentile(gaps, 95) * 10) / 10,
      }
    }

    // Grabbed by the padding under its blocks: the title is an input (nodrag) in write mode.
    const group = page.getByTestId('group-node').first()
    const box = (await group.boundingBox())!
    const grab = { x: box.x + box.width / 2, y: box.y + box.height - 5 }
    const drag = await measure(async () => {
      await page.mouse.move(grab.x, grab.y)
      await page.mouse.down()
      for (let i = 0; i < 60; i++) await page.mouse.move(grab.x + i * 5, grab.y + i * 2)
      await page.mouse.up()
    })
    const moved = (await group.boundingBox())!
    if (Math.abs(moved.x - box.x) < 100) throw new Error('the group did not move: nothing measured')

    const viewport = page.locator('.react-flow__viewport')
    const transform = () => viewport.evaluate((el) => (el as HTMLElement).style.transform)
    const before = await transform()
    const canvas = (await page.getByTestId('editor-canvas').boundingBox())!
    const pan = await measure(async () => {
      await page.mouse.move(canvas.x + canvas.width - 40, canvas.y + canvas.height - 40)
      await page.mouse.down()
      for (let i = 0; i < 60; i++)
        await page.mouse.move(
          canvas.x + canvas.width - 40 - i * 8,
          canvas.y + canvas.height - 40 - i * 4
        )
      await page.mouse.up()
    })
    if ((await transform()) === before) {
      const under = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 200),
        [canvas.x + canvas.width - 40, canvas.y + canvas.height - 40]
      )
      throw new Error(`the canvas did not pan: nothing measured (pointer on ${under})`)
    }

    const open = Math.round(percentile(opens, 50))
    return {
      name: 'editor',
      results: [
        {
          metric: 'open a 300-group / 2,000-block bot (median of 3)',
          value: open,
          unit: 'ms',
          aim: '< 1500',
          met: open < 1500,
        },
        {
          metric: 'frames while dragging a group',
          value: drag.fps,
          unit: 'fps',
          aim: '>= 50',
          met: drag.fps >= 50,
        },
        { metric: 'p95 frame time while dragging', value: drag.p95, unit: 'ms' },
        {
          metric: 'frames while panning',
          value: pan.fps,
          unit: 'fps',
          aim: '>= 50',
          met: pan.fps >= 50,
        },
        { metric: 'p95 frame time while panning', value: pan.p95, unit: 'ms' },
        {
          metric: 'server response, time to first byte (median)',
          value: Math.round(percentile(ttfbs, 50)),
          unit: 'ms',
        },
        {
          metric: 'HTML document with the page props',
          value: Math.round(pageBytes / 1024),
          unit: 'KiB',
        },
        {
          metric: 'DOMContentLoaded (median)',
          value: Math.round(percentile(dcls, 50)),
          unit: 'ms',
        },
      ],
      notes: [
        'Production build, SQLite, headless Chromium without GPU on a 2-core machine, viewport 1280x720.',
        'Open = navigation to the first group node painted (two animation frames later).',
        'Frames are counted with requestAnimationFrame while Playwright moves the mouse; headless Chromium caps at 60 fps.',
        'The group is dragged by its body (its title is a text field); the run fails when the group or the viewport did not move.',
      ],
    }
  } finally {
    await browser.close()
    server.kill('SIGTERM')
  }
}
