import { existsSync } from 'node:fs'
import { readFile, realpath } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'

/**
 * Plugins shipped as npm packages (docs/plugins.md, "Plugins as packages"). Node built-ins
 * only: the Vite config imports this file too, to put the same packages in the browser bundle.
 */

/** An installed package that declares a plugin (its package.json has `flowcraft.plugin`). */
export interface PluginPackage {
  name: string
  version: string
  /** The package's folder (symlinks resolved). */
  folder: string
  /** The manifest file, `flowcraft.plugin` resolved against the folder. */
  entry: string
}

/**
 * Where `name` is installed as seen from `appRoot`, as Node looks up a bare import: the
 * node_modules of that folder, then of each folder above it. The production build runs in
 * build/, whose packages are the app's, one folder up.
 */
export function installedPackageJson(appRoot: string, name: string): string | undefined {
  for (let folder = resolve(appRoot); ; folder = dirname(folder)) {
    const path = join(folder, 'node_modules', name, 'package.json')
    if (existsSync(path)) return path
    if (dirname(folder) === folder) return undefined
  }
}

async function readJson(path: string): Promise<Record<string, any> | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * The installed packages that are plugins: the app's own dependencies whose package.json has
 * a `flowcraft.plugin` entry, plus the packages named in config/plugins.ts (`listed`, which
 * must declare one). Only direct dependencies are looked at: a package pulled in by another
 * one cannot slip a block into every editor. Problems are returned, not thrown, so that
 * loadPlugins reports them with the manifests' own.
 */
export async function findPluginPackages(
  appRoot: string,
  listed: readonly string[] = []
): Promise<{ packages: PluginPackage[]; problems: string[] }> {
  const app = (await readJson(join(appRoot, 'package.json'))) ?? {}
  const dependencies = Object.keys({
    ...app.dependencies,
    ...app.optionalDependencies,
    ...app.devDependencies,
  })
  const packages: PluginPackage[] = []
  const problems: string[] = []
  for (const name of [...new Set([...listed, ...dependencies])].sort()) {
    const required = listed.includes(name)
    const manifestPath = installedPackageJson(appRoot, name)
    const manifest = manifestPath ? await readJson(manifestPath) : undefined
    if (!manifestPath || !manifest) {
      if (required) problems.push(`package ${name}: not installed (config/plugins.ts lists it)`)
      continue
    }
    const entry = manifest.flowcraft?.plugin
    if (typeof entry !== 'string' || entry === '') {
      if (required) problems.push(`package ${name}: its package.json has no flowcraft.plugin`)
      continue
    }
    const folder = await realpath(dirname(manifestPath))
    const entryPath = resolve(folder, entry)
    if (!entryPath.startsWith(folder + sep) || !existsSync(entryPath)) {
      problems.push(`package ${name}: flowcraft.plugin "${entry}" is not a file of the package`)
      continue
    }
    packages.push({ name, version: String(manifest.version ?? ''), folder, entry: entryPath })
  }
  return { packages, problems }
}
