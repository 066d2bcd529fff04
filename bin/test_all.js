/*
| `npm test`: every suite, split over shards that run side by side (docs/testing.md, "Shards").
|
| Each shard is a slot with its own database (SQLite file, or PostgreSQL/MariaDB database created
| here), its own HTTP port and GitHub stand-in port, and its own queue prefix. A slot runs two
| `ace test` processes one after the other: its share of the unit and functional files, then its
| share of the browser files. The browser suite never shares a process with the functional suite
| (docs/testing.md, "Two processes"). Files are dealt out by their last measured times
| (tmp/test-timings.json, else tests/file_timings.json, else an estimate from their test count).
|
| TEST_SHARDS sets the number of slots (default: one per core, at most 4); TEST_SUITES (e.g.
| `functional,browser`) runs only those suites. Each shard's output is printed whole when it
| ends, so failures read as in a single run; the last line is the total
| `N passed, N failed[, N skipped]`. A process still running after TEST_JOB_TIMEOUT_MIN minutes
| (default 35) is stopped and counts as failed. With arguments (`npm test -- functional --files x`), one
| `ace test` run with those arguments, as before.
*/
import { spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  createWriteStream,
} from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const ACE = [process.execPath, '--no-node-snapshot', 'ace.js', 'test']
const OUT = join(ROOT, 'tmp/test-shards')
const LOCAL_TIMINGS = join(ROOT, 'tmp/test-timings.json')
const SHIPPED_TIMINGS = join(ROOT, 'tests/file_timings.json')

/** The values of .env.test, under what the environment sets (as the app reads them). */
function testEnv() {
  const values = {}
  const file = join(ROOT, '.env.test')
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*)$/.exec(line)
      if (match) values[match[1]] = match[2].trim()
    }
  }
  return { ...values, ...process.env }
}

/** Spec files of a folder, recursively, as paths from the project root. */
function specFiles(folder, recursive = true) {
  const dir = join(ROOT, folder)
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive })
    .filter((entry) => entry.isFile() && /\.spec\.(ts|js)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath ?? entry.path, entry.name)))
    .sort()
}

/** The chosen suites' files, as adonisrc.ts lists them. */
function suiteFiles(suites) {
  const plugins = readdirSync(join(ROOT, 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => specFiles(join('plugins', entry.name), false))
  return {
    unitFunctional: [
      ...(suites.includes('unit') ? [...specFiles('tests/unit'), ...plugins] : []),
      ...(suites.includes('functional') ? specFiles('tests/functional') : []),
    ],
    browser: suites.includes('browser') ? specFiles('tests/browser') : [],
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return {}
  }
}

/** Milliseconds a file is expected to take. */
function weigher() {
  const known = { ...readJson(SHIPPED_TIMINGS), ...readJson(LOCAL_TIMINGS) }
  // Rough means per test when a file was never timed.
  const perTest = (file) =>
    file.includes('browser/') ? 8000 : file.includes('functional/') ? 300 : 60
  return (file) => {
    if (known[file] !== undefined) return Math.max(known[file], 50)
    const tests = (readFileSync(join(ROOT, file), 'utf8').match(/\btest\(/g) ?? []).length
    return Math.max(tests, 1) * perTest(file)
  }
}

/** Longest first into the lightest bin. */
function deal(files, bins, weight) {
  const out = Array.from({ length: bins }, () => ({ files: [], weight: 0 }))
  for (const file of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = out.reduce((a, b) => (b.weight < a.weight ? b : a))
    lightest.files.push(file)
    lightest.weight += weight(file)
  }
  return out
}

/** The connection string of slot `index`: slot 0 keeps the configured database. */
function databaseUrlOf(url, index) {
  if (index === 0) return url
  const parsed = new URL(url)
  parsed.pathname = `${parsed.pathname.replace(/^\//, '') || 'test'}_shard${index}`
  return parsed.toString()
}

async function createDatabases(connection, urls) {
  for (const url of urls) {
    const name = new URL(url).pathname.replace(/^\//, '')
    if (!/^[A-Za-z0-9_]+$/.test(name))
      throw new Error(`unusable database name for a shard: ${name}`)
    if (connection === 'pg') {
      const { default: pg } = await import('pg')
      const admin = new URL(url)
      admin.pathname = '/postgres'
      const client = new pg.Client({ connectionString: admin.toString() })
      await client.connect()
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [name])
        if (found.rowCount === 0) await client.query(`create database "${name}"`)
      } finally {
        await client.end()
      }
    } else if (connection === 'mysql') {
      const mysql = await import('mysql2/promise')
      const admin = new URL(url)
      admin.pathname = '/'
      const client = await mysql.createConnection(admin.toString())
      try {
        await client.query(`create database if not exists \`${name}\``)
      } finally {
        await client.end()
      }
    }
  }
}

function slotEnv(base, index, count) {
  const port = Number(base.PORT || 3334) + 2 * index
  const env = {
    ...process.env,
    PORT: String(port),
    GITHUB_URL: `http://127.0.0.1:${port + 1}`,
    GITHUB_API_URL: `http://127.0.0.1:${port + 1}/api`,
    TEST_SHARD: `${index + 1}/${count}`,
  }
  // Each shard migrates a database no other process migrates (tests/bootstrap.ts).
  if (count > 1) env.TEST_OWN_DATABASE = '1'
  if (base.DB_CONNECTION === 'pg' || base.DB_CONNECTION === 'mysql') {
    env.DATABASE_URL = databaseUrlOf(base.DATABASE_URL, index)
  } else if (index > 0) {
    env.SQLITE_PATH = (base.SQLITE_PATH || 'tmp/test.sqlite3').replace(
      /(\.[a-z0-9]+)?$/,
      `-shard${index}$1`
    )
  }
  if (index > 0) env.QUEUE_PREFIX = `${base.QUEUE_PREFIX || 'bull'}-shard${index}`
  return env
}

const strip = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/** Counts from Japa's summary line (`Tests  3 passed, 1 failed (4)`). */
function countsOf(output) {
  const lines = strip(output)
    .split('\n')
    .filter((line) => /^\s*Tests\s+.*\(\d+\)\s*$/.test(line))
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0, found: lines.length > 0 }
  const last = lines.at(-1) ?? ''
  for (const [, n, kind] of last.matchAll(/(\d+) (passed|failed|skipped|todo|regression)/g)) {
    if (kind === 'regression') counts.failed += Number(n)
    else counts[kind] += Number(n)
  }
  return counts
}

const children = new Set()

function runJob(job) {
  return new Promise((resolve) => {
    const started = Date.now()
    const log = createWriteStream(join(OUT, `${job.name}.log`))
    // A previous run's times must not pass for this one's when this process records none.
    rmSync(join(OUT, `${job.name}.timings.json`), { force: true })
    let output = ''
    const child = spawn(ACE[0], ACE.slice(1).concat(job.args), {
      cwd: ROOT,
      env: { ...job.env, TEST_TIMINGS_FILE: join(OUT, `${job.name}.timings.json`) },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: `ace test` runs the tests in a child of its own, and a stop
      // must reach that one and the browsers and servers it started.
      detached: true,
    })
    children.add(child)
    const collect = (chunk) => {
      output += chunk
      log.write(chunk)
      if (job.live) process.stdout.write(chunk)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    // A process that hangs (a handle left open, a test without its timeout) is stopped with its
    // output so far, so the run ends with the log of what hung instead of CI's own time limit.
    const limitMs = Number(process.env.TEST_JOB_TIMEOUT_MIN || 35) * 60_000
    let timedOut = false
    const watchdog = setTimeout(() => {
      timedOut = true
      collect(
        `\n[tests] ${job.name} still running after ${limitMs / 60_000} min ` +
          '(TEST_JOB_TIMEOUT_MIN): stopped. The last lines above show where it hung.\n'
      )
      const signalGroup = (signal) => {
        try {
          process.kill(-child.pid, signal)
        } catch {}
      }
      signalGroup('SIGTERM')
      setTimeout(() => signalGroup('SIGKILL'), 10_000).unref()
    }, limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(watchdog)
      children.delete(child)
      log.end()
      resolve({
        job,
        code: timedOut ? 1 : (code ?? 1),
        signal,
        output,
        seconds: (Date.now() - started) / 1000,
      })
    })
  })
}

async function runShards() {
  const started = Date.now()
  const base = testEnv()
  const count = Math.max(1, Number(process.env.TEST_SHARDS) || Math.min(4, availableParallelism()))
  mkdirSync(OUT, { recursive: true })
  // TEST_SUITES narrows the run (CI runs the unit suite once: docs/testing.md, "CI").
  const suites = (process.env.TEST_SUITES || 'unit,functional,browser').split(',')
  const unknown = suites.filter((name) => !['unit', 'functional', 'browser'].includes(name))
  if (unknown.length > 0) {
    console.error(`[tests] unknown suite in TEST_SUITES: ${unknown.join(', ')}`)
    return 1
  }
  const files = suiteFiles(suites)
  const weight = weigher()
  // Pair the heaviest unit+functional share with the lightest browser share, so slots end together.
  const unitFunctional = deal(files.unitFunctional, count, weight).sort(
    (a, b) => b.weight - a.weight
  )
  const browser = deal(files.browser, count, weight).sort((a, b) => a.weight - b.weight)

  if (process.env.TEST_PLAN_ONLY) {
    // Prints how the files would be dealt out, without running them.
    for (let i = 0; i < count; i++) {
      for (const [label, share] of [
        ['unit-functional', unitFunctional[i]],
        ['browser', browser[i]],
      ]) {
        console.log(
          `shard ${i + 1} ${label}: ${share.files.length} files, ~${(share.weight / 1000).toFixed(0)} s`
        )
      }
    }
    return 0
  }

  if (base.DB_CONNECTION === 'pg' || base.DB_CONNECTION === 'mysql') {
    const urls = Array.from({ length: count }, (_, i) => databaseUrlOf(base.DATABASE_URL, i))
    await createDatabases(base.DB_CONNECTION, urls.slice(1))
  }

  if (browser.some((share) => share.files.length > 0)) {
    // One build for every shard, before any starts (tests/test_assets.ts).
    const built = spawnSync(
      process.execPath,
      ['--import=ts-node-maintained/register/esm', 'bin/test_assets.ts'],
      { cwd: ROOT, stdio: 'inherit' }
    )
    if (built.status !== 0) return 1
    // The shards use this build as it is, whatever changes under its inputs meanwhile.
    process.env.TEST_ASSETS_BUILT = '1'
  }

  const forward = (signal) => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal)
      } catch {
        child.kill(signal)
      }
    }
    process.exit(1)
  }
  process.once('SIGINT', () => forward('SIGINT'))
  process.once('SIGTERM', () => forward('SIGTERM'))

  const live = count === 1
  console.log(
    `[tests] ${count} shard(s): ${files.unitFunctional.length} unit and functional files, ` +
      `${files.browser.length} browser files; logs in ${relative(ROOT, OUT)}/`
  )
  const results = []
  const slots = Array.from({ length: count }, async (_, index) => {
    const env = slotEnv(base, index, count)
    const jobs = [
      {
        suites: ['unit', 'functional'].filter((name) => suites.includes(name)),
        share: unitFunctional[index],
        label: 'unit-functional',
      },
      { suites: ['browser'], share: browser[index], label: 'browser' },
    ].filter((job) => job.share.files.length > 0)
    for (const { suites, share, label } of jobs) {
      const name = `shard${index + 1}-${label}`
      const result = await runJob({
        name,
        env,
        live,
        args: [...suites, ...share.files.flatMap((file) => ['--files', file])],
      })
      results.push(result)
      const counts = countsOf(result.output)
      if (!live) {
        console.log(
          `\n──── shard ${index + 1}/${count}, ${suites.join(' + ')}: ${share.files.length} files ────`
        )
        process.stdout.write(result.output)
      }
      console.log(
        `[tests] shard ${index + 1}/${count} ${label}: ${counts.passed} passed, ${counts.failed} failed` +
          ` in ${result.seconds.toFixed(0)} s (exit ${result.code}${result.signal ? `, ${result.signal}` : ''})`
      )
    }
  })
  await Promise.all(slots)

  // What this run measured replaces the older times of the same files.
  const timings = readJson(LOCAL_TIMINGS)
  for (const { job } of results)
    Object.assign(timings, readJson(join(OUT, `${job.name}.timings.json`)))
  writeFileSync(LOCAL_TIMINGS, JSON.stringify(timings, null, 1))

  const total = { passed: 0, failed: 0, skipped: 0 }
  let broken = false
  for (const result of results) {
    const counts = countsOf(result.output)
    total.passed += counts.passed
    total.failed += counts.failed
    total.skipped += counts.skipped
    if (result.code !== 0 && counts.failed === 0) {
      broken = true
      console.log(
        `[tests] ${result.job.name} ended with exit code ${result.code}` +
          `${counts.found ? '' : ' before its summary'} (log: ${relative(ROOT, OUT)}/${result.job.name}.log)`
      )
    }
  }
  console.log(`[tests] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`)
  console.log(
    `${total.passed} passed, ${total.failed} failed` +
      (total.skipped ? `, ${total.skipped} skipped` : '')
  )
  return total.failed > 0 || broken ? 1 : 0
}

const args = process.argv.slice(2)
if (args.length > 0) {
  process.exitCode =
    spawnSync(ACE[0], ACE.slice(1).concat(args), { cwd: ROOT, stdio: 'inherit' }).status ?? 1
} else {
  process.exitCode = await runShards()
}
