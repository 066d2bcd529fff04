import { test } from '@japa/runner'
import { execFile, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { newId } from '#services/ids'
import { CookieJar, startAppProcess } from '#tests/functional/app_process'

/*
 * What `npm start` does on a new machine (bin/start.js: migrations, the seed, the server),
 * on a database of its own, with the settings .env.example ships: no Stripe key and an
 * empty DEFAULT_WORKSPACE_PLAN. The first admin must build more than one bot and use a
 * template without touching the database (issue 20).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)

function ace(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (result.status !== 0) {
    throw new Error(`ace ${args.join(' ')} failed: ${result.stdout}\n${result.stderr}`)
  }
  return result.stdout
}

async function aceAsync(args: string[], env: Record<string, string>) {
  try {
    const { stdout } = await run(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 120_000,
    })
    return stdout
  } catch (error: any) {
    throw new Error(`ace ${args.join(' ')} failed: ${error.stdout}\n${error.stderr}`)
  }
}

/*
 * The app's children read .env.example's values as shipped (ENV_PATH: a folder holding it as
 * .env), except where the test sets one. The test process holds .env.test's values in
 * process.env, which children inherit and which win over any file: the plan settings are
 * left out of what they inherit, so the shipped (empty) ones apply.
 */
const SHIPPED_KEYS = ['DEFAULT_WORKSPACE_PLAN', 'STRIPE_SECRET_KEY']

async function withShippedPlanSettings<T>(fn: () => Promise<T>): Promise<T> {
  const saved = SHIPPED_KEYS.map((key) => [key, process.env[key]] as const)
  for (const key of SHIPPED_KEYS) delete process.env[key]
  try {
    return await fn()
  } finally {
    for (const [key, value] of saved) if (value !== undefined) process.env[key] = value
  }
}

test.group('A fresh self-hosted install', () => {
  test('the first admin creates two bots and uses a template', async ({ assert }) => {
    const file = `tmp/fresh-${newId()}.sqlite3`
    const envDir = mkdtempSync(join(tmpdir(), 'flowcraft-env-'))
    copyFileSync(join(ROOT, '.env.example'), join(envDir, '.env'))
    const env = {
      NODE_ENV: 'test',
      ENV_PATH: envDir,
      SQLITE_PATH: file,
      DB_CONNECTION: 'sqlite',
      SESSION_DRIVER: 'cookie',
    }
    const { app, printed } = await withShippedPlanSettings(async () => {
      ace(['migration:run', '--force'], env)
      ace(['db:seed'], env)
      // `npm start` prints this link for the first ADMIN_EMAILS entry when no SMTP is set.
      // It needs only the seeded database, so it boots beside the server rather than after it.
      const [started, link] = await Promise.allSettled([
        startAppProcess(env),
        aceAsync(['user:signin-link'], env),
      ])
      if (link.status === 'rejected') {
        if (started.status === 'fulfilled') await started.value.stop()
        throw link.reason
      }
      if (started.status === 'rejected') throw started.reason
      return { app: started.value, printed: link.value }
    })
    try {
      const link = /https?:\/\/\S+(\/auth\/magic\/[a-f0-9]+)/.exec(printed)
      assert.isNotNull(link, printed)
      const jar = new CookieJar(app.url)
      const landed = await jar.fetch(link![1])
      assert.equal(landed.headers.get('location'), '/bots')

      const form = { 'content-type': 'application/x-www-form-urlencoded' }
      await jar.fetch('/bots')
      for (const name of ['First bot', 'Second bot']) {
        const created = await jar.fetch('/bots', {
          method: 'POST',
          headers: form,
          body: new URLSearchParams({ name }).toString(),
        })
        assert.equal(created.status, 302)
        assert.match(created.headers.get('location') ?? '', /^\/bots\/[^/]+\/edit$/)
      }
      const fromTemplate = await jar.fetch('/bots/templates/faq', {
        method: 'POST',
        headers: form,
        body: '',
      })
      assert.equal(fromTemplate.status, 302)
      assert.match(fromTemplate.headers.get('location') ?? '', /^\/bots\/[^/]+\/edit$/)

      // The dashboard lists the three, and the Plans page says billing is off.
      const page = await jar.fetch('/bots', { headers: { 'x-inertia': 'true' } })
      const props = (await page.json()).props
      assert.lengthOf(props.bots, 3)
      assert.equal(props.currentWorkspace.plan, 'UNLIMITED')
      const plans = await jar.fetch('/bots/plans', { headers: { 'x-inertia': 'true' } })
      assert.isFalse((await plans.json()).props.billingEnabled)
    } finally {
      await app.stop()
      rmSync(join(ROOT, file), { force: true })
      rmSync(envDir, { recursive: true, force: true })
    }
  }).timeout(300_000)
})
