import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The browser suite runs against a production build of the assets (docs/testing.md, "Assets
 * in tests"): through the Vite dev server, every page of every test (a fresh browser context,
 * so no HTTP cache) fetched over a thousand modules one by one, which made the browser suite
 * most of CI's time. The build is made once and reused while its inputs are unchanged; the
 * fingerprint of those inputs is stored next to the manifest.
 *
 * TEST_ASSETS=dev keeps the dev server (to iterate on the UI with tests, no build step);
 * TEST_ASSETS=build forces the build (it is made unless fresh).
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const OUT = join(ROOT, 'public/assets')
const MANIFEST = join(OUT, '.vite/manifest.json')
const STAMP = join(OUT, '.vite/test-fingerprint')

/** What the bundle is made of: the Vite config reads these folders and files (vite.config.ts). */
const INPUT_FOLDERS = ['resources', 'plugins', 'app/sdk', 'app/shared', 'packages/sdk/src', 'vite']
const INPUT_FILES = [
  'vite.config.ts',
  'config/plugins.ts',
  'config/vite.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'resources/tsconfig.json',
]
const SKIPPED = new Set(['node_modules', '.git'])

function* filesUnder(folder: string): Generator<string> {
  if (!existsSync(folder)) return
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue
    const path = join(folder, entry.name)
    if (entry.isDirectory()) yield* filesUnder(path)
    else if (entry.isFile()) yield path
  }
}

/**
 * Path, size and modification time of every input (a stat per file, no read): a file
 * added, removed, edited or checked out again changes it.
 */
export function assetsFingerprint(root = ROOT) {
  const hash = createHash('sha256')
  const files = [
    ...INPUT_FOLDERS.flatMap((folder) => [...filesUnder(join(root, folder))]),
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) => existsSync(file)),
  ].sort()
  for (const file of files) {
    const stat = statSync(file)
    hash.update(`${relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`)
  }
  return hash.digest('hex')
}

function isFresh(fingerprint: string) {
  return (
    existsSync(MANIFEST) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === fingerprint
  )
}

/**
 * Whether a `node ace test` command line runs the browser suite: it names it, or names no
 * suite and either no file (all suites run) or a file that may be a browser test.
 */
export function runsBrowserSuite(argv: string[], suites: string[]) {
  const named = argv.filter((arg) => suites.includes(arg))
  if (named.length > 0) return named.includes('browser')
  const files = argv.flatMap((arg, index) => (argv[index - 1] === '--files' ? [arg] : []))
  return (
    files.length === 0 ||
    files.some((file) => file.includes('browser/') || !/^(tests|plugins)\//.test(file))
  )
}

/**
 * Decides how this test run serves the assets and sets TEST_ASSETS for the Vite provider
 * (providers/vite_provider.ts) and for the app processes tests start: `build` when a fresh
 * build exists or is made now (only when the browser suite runs: the other suites fetch no
 * asset, so they never wait for a build), otherwise `dev`.
 */
export function prepareTestAssets(options: { browserSuite: boolean; servesPages?: boolean }) {
  // A run that renders no page (plugins' own tests) needs neither a build nor the dev server.
  if (options.servesPages === false) return (process.env.TEST_ASSETS = 'none')
  if (process.env.TEST_ASSETS === 'dev') return 'dev'
  // `npm test` built them before starting its shards: a shard rebuilding public/assets would
  // swap the files under the pages of the others (docs/testing.md, "Shards").
  if (process.env.TEST_ASSETS_BUILT === '1' && existsSync(MANIFEST)) {
    return (process.env.TEST_ASSETS = 'build')
  }
  const fingerprint = assetsFingerprint()
  const wanted = process.env.TEST_ASSETS === 'build' || options.browserSuite
  if (!isFresh(fingerprint)) {
    if (!wanted) return (process.env.TEST_ASSETS = 'dev')
    const started = Date.now()
    console.log('[tests] building the assets for the browser suite (vite build)')
    const vite = join(ROOT, 'node_modules/vite/bin/vite.js')
    const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    })
    if (built.status !== 0) throw new Error('vite build of the test assets failed')
    writeFileSync(STAMP, fingerprint)
    console.log(`[tests] assets built in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  }
  return (process.env.TEST_ASSETS = 'build')
}

/**
 * How a page of this run names an entry script: its source path through the dev server, its
 * hashed file in a build (tests that check which entry a page loads work in both modes).
 */
export function entryScriptOf(entry: string) {
  if (process.env.TEST_ASSETS !== 'build') return entry
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, { file: string }>
  return manifest[entry].file
}
