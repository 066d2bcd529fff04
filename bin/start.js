/*
| `npm start`: the embedded default. Creates .env when missing, builds the app when the
| build is missing or older than the sources, runs migrations and the (idempotent) seed,
| then starts the server. Data stays outside build/ (tmp/, storage/), so rebuilding never
| loses it.
*/
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureEnvFile, sourceStamp } from './prepare.js'

const root = process.cwd()
const node = process.execPath
const nodeFlags = ['--no-node-snapshot']

function run(args, opts = {}) {
  const result = spawnSync(node, [...nodeFlags, ...args], { stdio: 'inherit', cwd: root, ...opts })
  if (result.status !== 0) {
    console.error(`[start] "${args.join(' ')}" failed`)
    process.exit(result.status ?? 1)
  }
}

ensureEnvFile(root)

const stampFile = join(root, 'build', '.source-stamp')
const stamp = sourceStamp(root)
const built = existsSync(join(root, 'build', 'bin', 'server.js'))
if (!built || !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
  console.log(built ? '[start] sources changed: rebuilding…' : '[start] building the app (first run, about a minute)…')
  run(['ace.js', 'build'])
  writeFileSync(stampFile, stamp)
}

// The build reads its environment from build/.env; the project's .env is the one to edit.
copyFileSync(join(root, '.env'), join(root, 'build', '.env'))

run(['build/ace.js', 'migration:run', '--force'])
run(['build/ace.js', 'db:seed'])
run(['build/ace.js', 'user:signin-link', '--if-no-smtp'])

const server = spawn(node, [...nodeFlags, 'build/bin/server.js'], { stdio: 'inherit', cwd: root })
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal))
}
server.on('exit', (code) => process.exit(code ?? 0))
