/*
| Checks run on build/ once `node ace build` has written it (the onBuildCompleted hook of
| adonisrc.ts), so that what `npm start` serves is what the tests run:
| - every file of each plugin folder but its code is in build/ (icon, locales, README, any
|   file a runner reads), and the registry, loaded from build/ as the server will load it,
|   finds every file a manifest names;
| - the assets hold no development bundle (React's development build in particular).
| A problem fails the build with the plugin and file named, and build/ is removed, as tsc
| errors do. Other manifest problems only warn: the server leaves such a plugin out and
| says so at boot, the others work.
*/
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadPlugins } from '#plugins/registry'

/** Compiled by tsc (.ts) or bundled by Vite (.tsx): not copied as they are. */
const isCode = (file: string) => /\.(ts|tsx)$/.test(file)

function filesUnder(folder: string, base = folder): string[] {
  const files: string[] = []
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue
    const path = join(folder, entry.name)
    if (entry.isDirectory()) files.push(...filesUnder(path, base))
    else if (entry.isFile()) files.push(relative(base, path))
  }
  return files
}

/** The plugin folders of plugins/ (those with an index file), as the registry finds them. */
function pluginFolders(pluginsDir: string) {
  if (!existsSync(pluginsDir)) return []
  return readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !/^[._]/.test(entry.name))
    .map((entry) => entry.name)
    .filter((name) => ['index.ts', 'index.js'].some((f) => existsSync(join(pluginsDir, name, f))))
    .sort()
}

/** Files of a source plugin folder (not code) that the build did not carry. */
export function pluginFilesMissingFromBuild(sourceRoot: string, buildRoot: string): string[] {
  const problems: string[] = []
  const sourcePlugins = join(sourceRoot, 'plugins')
  for (const name of pluginFolders(sourcePlugins)) {
    for (const file of filesUnder(join(sourcePlugins, name))) {
      if (isCode(file) || existsSync(join(buildRoot, 'plugins', name, file))) continue
      problems.push(`plugins/${name}: ${file} is not in the build`)
    }
  }
  return problems
}

/**
 * The registry loaded from build/plugins, as `node build/bin/server.js` loads it: files its
 * manifests name (icon.svg) that are missing fail the build; other problems are returned
 * as warnings.
 */
export async function pluginProblemsInBuild(buildRoot: string) {
  const registry = await loadPlugins(join(buildRoot, 'plugins'), { strict: false })
  const missing: string[] = []
  const warnings: string[] = []
  for (const problem of registry.problems()) {
    if (problem.missingFile) missing.push(problem.message)
    else warnings.push(problem.message)
  }
  return { missing, warnings, loaded: registry.all().length }
}

/**
 * Strings only development builds carry, found by comparing React 19's development and
 * production bundles once minified: property names and warning texts survive minifying,
 * and the production build strips them.
 */
export const DEVELOPMENT_MARKERS: readonly { text: string; what: string }[] = [
  { text: '_debugTask', what: "React's development build (owner stacks)" },
  { text: 'Each child in a list should have a unique', what: "React's development warnings" },
  { text: 'not configured to support act(', what: "React DOM's development build (act)" },
]

/** The scripts of an assets folder that hold a development-only bundle, with what was found. */
export function developmentBundlesIn(assetsDir: string): string[] {
  if (!existsSync(assetsDir)) return []
  const found: string[] = []
  for (const file of filesUnder(assetsDir)) {
    if (!/\.(m?js)$/.test(file)) continue
    const text = readFileSync(join(assetsDir, file), 'utf8')
    const marker = DEVELOPMENT_MARKERS.find((candidate) => text.includes(candidate.text))
    if (marker) found.push(`${file}: ${marker.what} ("${marker.text}")`)
  }
  return found
}

/** Every check on a build folder; returns the problems that fail it and the warnings. */
export async function checkBuild(sourceRoot: string, buildRoot: string) {
  const plugins = await pluginProblemsInBuild(buildRoot)
  const failures = [
    ...pluginFilesMissingFromBuild(sourceRoot, buildRoot),
    ...plugins.missing,
    ...developmentBundlesIn(join(buildRoot, 'public/assets')).map(
      (problem) => `build/public/assets/${problem}: a development bundle in a production build`
    ),
  ]
  return { failures, warnings: plugins.warnings, plugins: plugins.loaded }
}

interface HookArgs {
  logger: { info(message: string): void; warning(message: string): void }
}

/** The onBuildCompleted hook. */
export default async function checkBuildHook({ logger }: HookArgs) {
  const sourceRoot = fileURLToPath(new URL('../', import.meta.url))
  const buildRoot = join(sourceRoot, 'build')
  const { failures, warnings, plugins } = await checkBuild(sourceRoot, buildRoot)
  for (const warning of warnings) logger.warning(`plugin left out at boot: ${warning}`)
  if (failures.length > 0) {
    rmSync(buildRoot, { recursive: true, force: true })
    throw new Error(`The build is incomplete (build/ removed):\n- ${failures.join('\n- ')}`)
  }
  logger.info(`build checked: ${plugins} plugins with their files, production bundles only`)
}
