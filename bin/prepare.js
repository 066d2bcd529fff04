/*
| Creates .env from .env.example on first run, with a fresh APP_KEY and a 32-character
| ENCRYPTION_SECRET. Plain JavaScript: it runs before anything is compiled.
*/
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'

export function ensureEnvFile(root = process.cwd()) {
  const envPath = `${root}/.env`
  if (existsSync(envPath)) return false
  let text = readFileSync(`${root}/.env.example`, 'utf8')
  const set = (key, value) => {
    const line = new RegExp(`^${key}=.*$`, 'm')
    text = line.test(text) ? text.replace(line, `${key}=${value}`) : `${text}\n${key}=${value}\n`
  }
  set('APP_KEY', randomBytes(32).toString('base64url'))
  set('ENCRYPTION_SECRET', randomBytes(16).toString('hex'))
  if (!/^ADMIN_EMAILS=\S/m.test(text)) set('ADMIN_EMAILS', 'admin@example.com')
  writeFileSync(envPath, text, { mode: 0o600 })
  console.log('[start] created .env with a fresh APP_KEY and ENCRYPTION_SECRET')
  return true
}

function newestMtime(dir) {
  let newest = 0
  if (!existsSync(dir)) return 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/**
 * The sources' newest modification time: `npm start` (and the benchmarks, which measure
 * what it serves) rebuild when build/.source-stamp differs from it.
 */
export function sourceStamp(root = process.cwd()) {
  const parts = [
    'app',
    'start',
    'config',
    'resources',
    'database',
    'plugins',
    'commands',
    'providers',
    'bin',
  ]
  let newest = 0
  for (const p of parts) newest = Math.max(newest, newestMtime(join(root, p)))
  for (const f of ['package.json', 'adonisrc.ts', 'vite.config.ts', 'tsconfig.json']) {
    if (existsSync(join(root, f))) newest = Math.max(newest, statSync(join(root, f)).mtimeMs)
  }
  // The plugin packages named in the environment are bundled too: another list, another build.
  const packages = process.env.PLUGIN_PACKAGES?.trim()
  return packages ? `${Math.floor(newest)} ${packages}` : String(Math.floor(newest))
}

if (import.meta.url === `file://${process.argv[1]}`) ensureEnvFile()
