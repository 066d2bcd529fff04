/*
| The workflows bench's server side (bench/workflows.bench.ts): where it runs, the build's
| processes (web server, worker) with their environment, and waiting for them to answer.
*/
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { copyFileSync } from 'node:fs'
import { appBuild } from './app_build.js'
// @ts-expect-error plain JavaScript helper without types
import { ensureEnvFile } from '../bin/prepare.js'

export const ROOT = join(import.meta.dirname, '..')
// BENCH_PORT: engineers sharing a machine each bench on their own port.
export const PORT = Number(process.env.BENCH_PORT) || 3362
export const BASE = `http://127.0.0.1:${PORT}`
export const DATABASE_URL =
  process.env.BENCH_WORKFLOWS_DATABASE_URL || 'postgres://root@127.0.0.1:5432/bench_workflows'
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379'
/** The bench's Redis keys start with QUEUE_PREFIX when set: engineers sharing a Redis each keep to theirs. */
export const BENCH_PREFIX = process.env.QUEUE_PREFIX || 'bench'
export type Driver = 'in-process' | 'bullmq'
export function env(driver: Driver, prefix: string) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    APP_URL: BASE,
    DB_CONNECTION: 'pg',
    DATABASE_URL,
    LOG_LEVEL: 'warn',
    SMTP_HOST: '',
    QUEUE_DRIVER: driver,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    // The recovery measurement calls a listener on 127.0.0.1.
    ALLOW_INTERNAL_HTTP: 'true',
  }
}

export function ace(args: string[], driver: Driver = 'in-process', prefix = 'bench') {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
    cwd: ROOT,
    env: env(driver, prefix),
    encoding: 'utf8',
  })
  if (result.status !== 0)
    throw new Error(`ace ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`)
  return result.stdout
}

/** BENCH_PROFILE=<dir>: the server and the worker write CPU profiles there (node --cpu-prof). */
export const PROFILE_DIR = process.env.BENCH_PROFILE
/** BENCH_DRIVERS=in-process or bullmq: measure one driver only (while profiling, say). */
export const DRIVERS = (process.env.BENCH_DRIVERS?.split(',') ?? [
  'in-process',
  'bullmq',
]) as Driver[]

let built: string | null = null

/**
 * The production build `npm start` serves (build/), with the project's .env beside it as
 * bin/start.js puts it: what users run, not the sources through the TypeScript loader.
 */
export function buildDir() {
  if (!built) {
    built = appBuild(ROOT)
    ensureEnvFile(ROOT)
    copyFileSync(join(ROOT, '.env'), join(built, '.env'))
  }
  return built
}

/** A process of the build: `bin/server.js` (the web server) or `bin/console.js queue:work`. */
export function node(args: string[], driver: Driver, prefix: string): ChildProcess {
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  return spawn(process.execPath, ['--no-node-snapshot', ...profile, ...args], {
    cwd: buildDir(),
    env: env(driver, prefix),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

export async function waitForHealth() {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the server did not start')
}
