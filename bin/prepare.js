/*
| Creates .env from .env.example on first run, with a fresh APP_KEY and a 32-character
| ENCRYPTION_SECRET. Plain JavaScript: it runs before anything is compiled.
*/
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
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

if (import.meta.url === `file://${process.argv[1]}`) ensureEnvFile()
