/*
| The build `npm start` serves (bin/start.js): `node ace build` of a checkout into its build/
| folder, with the project's own configuration (vite.config.ts builds every library in
| production mode, adonisrc.ts copies the plugins' icons, texts and READMEs). The benches
| that drive a browser start build/bin/server.js themselves, on their own port and database,
| so what they measure is what users are served, not a build of their own.
*/
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** Builds made by this process: the guard runs several benches, which need one build. */
const madeHere = new Set<string>()

/** build/ of `root`; made with `node ace build` unless BENCH_SKIP_BUILD=1 and it exists. */
export function appBuild(root: string) {
  const out = join(root, 'build')
  if (madeHere.has(out)) return out
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(join(out, 'bin/server.js'))) return out
  const result = spawnSync(process.execPath, ['--no-node-snapshot', 'ace.js', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (result.status !== 0 || !existsSync(join(out, 'bin/server.js')))
    throw new Error(`node ace build failed in ${root}`)
  madeHere.add(out)
  return out
}
