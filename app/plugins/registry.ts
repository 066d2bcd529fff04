import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { builtinModules, createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { registerSdkSpecifier } from './sdk_specifier.js'
import type { PluginPackage } from './packages.js'
import { DEFAULT_PLANS } from '../shared/plans.js'

export { findPluginPackages, type PluginPackage } from './packages.js'
import {
  BOT_CATEGORIES,
  PLUGIN_CATEGORIES,
  PLUGIN_SCOPES,
  PLUGIN_SURFACES,
  WORKFLOW_CATEGORIES,
  pluginSlug,
  slugOf,
  type PluginCategory,
  type PluginDeclaration,
  type Runner,
  type InputParser,
} from './define_plugin.js'

/**
 * The server side registry: every folder of plugins/ with an index file is a plugin, and so
 * is every installed npm package that declares one (docs/plugins.md, "Plugins as packages").
 * Discovered once at boot; the browser bundle gets the same list from the module the Vite
 * plugin generates (vite/flowcraft_plugins.ts). The core asks the registry by id and never
 * names a plugin itself.
 */

export type AnyPlugin = PluginDeclaration<any, any, any>

/** Where a plugin comes from: a folder of plugins/ or an npm package. */
export type PluginSource =
  | { kind: 'folder'; path: string }
  | { kind: 'package'; name: string; version: string; path: string }

/** What a plugin's runner.ts exports: `run` for a single runner, or one per action. */
export type RunnerModule = Record<
  string,
  Runner<any, any> | InputParser<any> | Record<string, Runner<any, any>> | undefined
>

export interface PluginRegistry {
  all(): AnyPlugin[]
  get(id: string): AnyPlugin | undefined
  has(id: string): boolean
  byCategory(): Partial<Record<PluginCategory, AnyPlugin[]>>
  forBots(): AnyPlugin[]
  forWorkflows(): AnyPlugin[]
  /** The folder of a plugin on disk (a package's: the folder of its manifest). */
  folderOf(id: string): string | undefined
  /** Whether the plugin is a folder of plugins/ or a package, for `plugins:list`. */
  sourceOf(id: string): PluginSource | undefined
  /** The plugin id a stored type stands for: itself, or the plugin that took it as an alias. */
  canonicalId(id: string): string
  /**
   * The runner of a plugin (of one action when given), imported on first use.
   * Undefined when the plugin has no runner.ts or does not export that runner.
   */
  runnerOf(id: string, action?: string): Promise<Runner<any, any> | undefined>
  /** An input plugin's answer parser (the `parse` export of its runner.ts). */
  parserOf(id: string): Promise<InputParser<any> | undefined>
  /**
   * Another named export of a plugin's runner.ts: the hooks a capability looks for (a
   * trigger's `toCron` or `acceptsCall`), so the core asks for abilities, not plugin names.
   */
  exportOf<T = unknown>(id: string, name: string): Promise<T | undefined>
  /** The plugins left out and why (a lenient load, see LoadOptions.strict). */
  problems(): readonly PluginProblem[]
}

/** Why a plugin was left out (or, for a taken alias, lost that alias). */
export interface PluginProblem {
  /** `plugins/<folder>` or `package <name>`. */
  where: string
  /** The whole sentence, starting with `where`. */
  message: string
  /** A file the manifest names that is not in its folder (its icon.svg). */
  missingFile?: string
}

export class PluginManifestError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid plugins:\n- ${problems.join('\n- ')}`)
    this.name = 'PluginManifestError'
  }
}

// The compiled app (build/) has .js files, development runs the .ts sources.
const EXTENSIONS = import.meta.url.endsWith('.ts') ? ['ts', 'js'] : ['js', 'ts']

function fileIn(folder: string, name: string) {
  for (const extension of EXTENSIONS) {
    const path = join(folder, `${name}.${extension}`)
    if (existsSync(path)) return path
  }
  return undefined
}

const hasViewer = (folder: string) =>
  ['tsx', 'jsx', 'js'].some((extension) => existsSync(join(folder, `viewer.${extension}`)))

const NODE_MODULES = new Set(builtinModules)
const IMPORT_SPECIFIER =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g

/**
 * Manifests are imported by the browser bundle too: refuse Node built-ins and the
 * server-only runner in index files before anything imports them.
 */
export function serverOnlyImportsOf(source: string): string[] {
  const found: string[] = []
  for (const match of source.matchAll(IMPORT_SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3]
    if (
      specifier.startsWith('node:') ||
      NODE_MODULES.has(specifier.split('/')[0]) ||
      /(^|\/)runner(\.[jt]s)?$/.test(specifier) ||
      /(^|\/)credentials(\.[jt]s)?$/.test(specifier)
    ) {
      found.push(specifier)
    }
  }
  return found
}

/** The https origin a `hostScripts` entry stands for, or undefined when it is not one. */
function hostScriptOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * Checks a manifest's own fields; returns the problems found. `folder` is the name of its
 * folder under plugins/, or null for a package (its folder name is the package's business).
 */
export function manifestProblems(
  plugin: unknown,
  folder: string | null,
  where = `plugins/${folder}`
): string[] {
  if (!plugin || typeof plugin !== 'object')
    return [`${where}: index must export default definePlugin({...})`]
  const manifest = plugin as AnyPlugin
  const problems: string[] = []
  if (typeof manifest.id !== 'string' || manifest.id.trim() === '')
    problems.push(`${where}: id is missing`)
  if (typeof manifest.name !== 'string' || manifest.name === '')
    problems.push(`${where}: name is missing`)
  if (typeof manifest.fullName !== 'string' || manifest.fullName.trim() === '')
    problems.push(`${where}: fullName is missing`)
  if (
    !Array.isArray(manifest.tags) ||
    manifest.tags.some((tag: unknown) => typeof tag !== 'string' || tag.trim() === '')
  )
    problems.push(`${where}: tags must be a list of words`)
  if (!PLUGIN_CATEGORIES.includes(manifest.category)) {
    problems.push(
      `${where}: category "${manifest.category}" is not one of ${PLUGIN_CATEGORIES.join(', ')}`
    )
  }
  // The SDK types planFeature as a string (it does not know the app's plans): checked here.
  const planFeatures = Object.keys(DEFAULT_PLANS[0].features)
  if (manifest.planFeature !== undefined && !planFeatures.includes(manifest.planFeature)) {
    problems.push(
      `${where}: planFeature "${manifest.planFeature}" is not one of ${planFeatures.join(', ')}`
    )
  }
  if (!PLUGIN_SCOPES.includes(manifest.scope)) {
    problems.push(`${where}: scope "${manifest.scope}" is not one of ${PLUGIN_SCOPES.join(', ')}`)
  }
  if (!Number.isInteger(manifest.version) || manifest.version < 1) {
    problems.push(`${where}: version must be a positive integer`)
  }
  if (!Array.isArray(manifest.serves) || manifest.serves.length === 0) {
    problems.push(`${where}: serves must list 'bot' and/or 'workflow'`)
  } else {
    for (const surface of manifest.serves) {
      if (!PLUGIN_SURFACES.includes(surface))
        problems.push(`${where}: serves has an unknown "${surface}"`)
    }
  }
  // A plugin serving one surface uses that surface's categories; one serving both may use either.
  if (Array.isArray(manifest.serves) && manifest.serves.length === 1) {
    const allowed: readonly string[] =
      manifest.serves[0] === 'bot' ? BOT_CATEGORIES : WORKFLOW_CATEGORIES
    if (PLUGIN_CATEGORIES.includes(manifest.category) && !allowed.includes(manifest.category)) {
      problems.push(
        `${where}: category "${manifest.category}" is not a ${manifest.serves[0]} category (${allowed.join(', ')})`
      )
    }
  }
  for (const [surface, category] of Object.entries(manifest.categories ?? {})) {
    const allowed: readonly string[] =
      surface === 'bot' ? BOT_CATEGORIES : surface === 'workflow' ? WORKFLOW_CATEGORIES : []
    if (!allowed.includes(category as string)) {
      problems.push(`${where}: categories.${surface} "${category}" is not a ${surface} category`)
    } else if (!manifest.serves?.includes(surface as 'bot' | 'workflow')) {
      problems.push(
        `${where}: categories.${surface} is set but the plugin does not serve ${surface}s`
      )
    }
  }
  for (const origin of manifest.hostScripts ?? []) {
    if (hostScriptOrigin(origin) !== origin) {
      problems.push(`${where}: hostScripts "${origin}" must be an https origin (https://host)`)
    }
  }
  // A store's account is the plugin's credentials: a backend without them has none to use.
  if (manifest.vectorStore && !manifest.credentials && !manifest.oauth) {
    problems.push(`${where}: vectorStore needs credentials (the account a store lives in)`)
  }
  if (typeof manifest.id === 'string') {
    if (manifest.slug !== undefined && manifest.slug !== slugOf(manifest.slug)) {
      problems.push(`${where}: slug "${manifest.slug}" must be kebab-case`)
    }
    const expected = pluginSlug(manifest)
    if (folder !== null && expected !== folder) {
      problems.push(`${where}: the folder of "${manifest.id}" must be plugins/${expected}`)
    }
  }
  return problems
}

let lucideIcons: string | null | undefined
/** lucide-react's folder of icon modules, one `<name>.js` per icon; null when not installed. */
function lucideIconsFolder() {
  if (lucideIcons === undefined) {
    try {
      const root = dirname(createRequire(import.meta.url).resolve('lucide-react/package.json'))
      lucideIcons = join(root, 'dist/esm/icons')
    } catch {
      lucideIcons = null
    }
  }
  return lucideIcons
}

/**
 * A manifest's icon is a file of its folder (`icon.svg`) or a lucide icon name: a typo would
 * otherwise show a generic piece in both editors without a word.
 */
export function iconProblemOf(icon: string | undefined, folder: string, where: string) {
  if (!icon) return undefined
  if (/\.svg$/i.test(icon)) {
    return existsSync(join(folder, icon)) ? undefined : `${where}: icon file ${icon} is missing`
  }
  const icons = lucideIconsFolder()
  if (!icons || existsSync(join(icons, `${icon}.js`))) return undefined
  return `${where}: icon "${icon}" is neither a lucide icon name (https://lucide.dev/icons) nor an .svg file of the folder`
}

interface Candidate {
  /** The folder of the manifest: its runner, credentials, icon and locales are beside it. */
  folder: string
  indexPath: string
  /** How problems name it: `plugins/<folder>` or `package <name>`. */
  where: string
  /** The folder name under plugins/ the manifest's slug must match; null for a package. */
  slugFolder: string | null
  source: PluginSource
}

async function folderCandidates(rootDir: string): Promise<Candidate[]> {
  const entries = existsSync(rootDir) ? await readdir(rootDir, { withFileTypes: true }) : []
  const candidates: Candidate[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name.startsWith('_')) continue
    const folder = join(rootDir, entry.name)
    const indexPath = fileIn(folder, 'index')
    if (!indexPath) continue
    candidates.push({
      folder,
      indexPath,
      where: `plugins/${entry.name}`,
      slugFolder: entry.name,
      source: { kind: 'folder', path: `plugins/${entry.name}` },
    })
  }
  return candidates.sort((a, b) => a.folder.localeCompare(b.folder))
}

export interface LoadOptions {
  /** Installed plugin packages (findPluginPackages); none by default. */
  packages?: readonly PluginPackage[]
  /** Problems found while looking for packages, reported with the manifests' own. */
  problems?: readonly string[]
  /**
   * true (the default: tests, tools): any problem rejects the whole set with a
   * PluginManifestError. false (the running app): a plugin with a problem is left out,
   * the others load, and `problems()` says what was left out and why.
   */
  strict?: boolean
}

export async function loadPlugins(
  rootDir: string,
  options: LoadOptions = {}
): Promise<PluginRegistry> {
  const candidates = await folderCandidates(rootDir)
  for (const pkg of options.packages ?? []) {
    candidates.push({
      folder: dirname(pkg.entry),
      indexPath: pkg.entry,
      where: `package ${pkg.name}`,
      slugFolder: null,
      source: { kind: 'package', name: pkg.name, version: pkg.version, path: pkg.folder },
    })
  }
  // A package imports the SDK as @flowcraft/sdk/*: Node must know that name first.
  if (candidates.some((candidate) => candidate.source.kind === 'package')) registerSdkSpecifier()

  const problems: PluginProblem[] = (options.problems ?? []).map((message) => ({
    where: message.split(':')[0],
    message,
  }))
  const report = (where: string, messages: string[], missingFile?: string) => {
    for (const message of messages) problems.push({ where, message, missingFile })
  }
  const plugins = new Map<string, AnyPlugin>()
  const byId = new Map<string, Candidate>()
  const slugOwner = new Map<string, string>()

  for (const candidate of candidates) {
    const { where, indexPath } = candidate
    const forbidden = serverOnlyImportsOf(await readFile(indexPath, 'utf8'))
    if (forbidden.length > 0) {
      report(where, [
        `${where}: index must stay browser-safe, it imports ${forbidden.join(', ')} (move that to runner.ts)`,
      ])
      continue
    }
    let plugin: unknown
    try {
      plugin = (await import(pathToFileURL(indexPath).href)).default
    } catch (error: any) {
      report(where, [`${where}: could not be imported (${error?.message ?? error})`])
      continue
    }
    const found = manifestProblems(plugin, candidate.slugFolder, where)
    if (found.length > 0) {
      report(where, found)
      continue
    }
    const manifest = plugin as AnyPlugin
    const iconProblem = iconProblemOf(manifest.icon, candidate.folder, where)
    if (iconProblem) {
      report(where, [iconProblem], /\.svg$/i.test(manifest.icon ?? '') ? manifest.icon : undefined)
      continue
    }
    if (plugins.has(manifest.id)) {
      report(where, [
        `${where}: id "${manifest.id}" is already used by ${byId.get(manifest.id)!.where}`,
      ])
      continue
    }
    // The browser finds a plugin's files and texts by slug: two plugins may not share one.
    const slug = pluginSlug(manifest)
    // The chat page finds an input's viewer by the block type alone (it loads no manifest).
    if (hasViewer(candidate.folder) && slug !== slugOf(manifest.id)) {
      report(where, [
        `${where}: a plugin with a viewer must keep the slug of its id ("${slugOf(manifest.id)}")`,
      ])
      continue
    }
    if (slugOwner.has(slug)) {
      report(where, [`${where}: slug "${slug}" is already used by ${slugOwner.get(slug)}`])
      continue
    }
    plugins.set(manifest.id, manifest)
    byId.set(manifest.id, candidate)
    slugOwner.set(slug, where)
  }
  const aliasOwner = new Map<string, string>()
  for (const plugin of plugins.values()) {
    for (const alias of plugin.aliases ?? []) {
      const other = plugins.has(alias) ? alias : aliasOwner.get(alias)
      if (other) {
        const where = byId.get(plugin.id)!.where
        report(where, [`${where}: alias "${alias}" is already taken by "${other}"`])
      } else {
        aliasOwner.set(alias, plugin.id)
      }
    }
  }
  if (problems.length > 0 && options.strict !== false) {
    throw new PluginManifestError(problems.map((problem) => problem.message))
  }

  return createRegistry(
    [...plugins.values()],
    (id) => byId.get(id)?.folder,
    (id) => byId.get(id)?.source,
    problems
  )
}

/** A registry over already imported manifests (tests, the browser-side mirror). */
export function createRegistry(
  plugins: AnyPlugin[],
  folderOf: (id: string) => string | undefined = () => undefined,
  sourceOf: (id: string) => PluginSource | undefined = () => undefined,
  problems: readonly PluginProblem[] = []
): PluginRegistry {
  const canonical = new Map<string, AnyPlugin>(plugins.map((plugin) => [plugin.id, plugin]))
  // Lookups by a stored type accept the ids folded plugins had before.
  const byId = new Map(canonical)
  for (const plugin of plugins) {
    for (const alias of plugin.aliases ?? []) if (!byId.has(alias)) byId.set(alias, plugin)
  }
  const canonicalId = (id: string) => byId.get(id)?.id ?? id
  const folderOfType = (id: string) => folderOf(canonicalId(id))
  const runnerModules = new Map<string, Promise<RunnerModule | undefined>>()

  const loadRunnerModule = (type: string) => {
    const id = canonicalId(type)
    let loading = runnerModules.get(id)
    if (!loading) {
      const folder = folderOf(id)
      const path = folder ? fileIn(folder, 'runner') : undefined
      loading = path ? import(pathToFileURL(path).href) : Promise.resolve(undefined)
      // A failed import is not cached, so a fixed file is picked up on the next call.
      loading.catch(() => runnerModules.delete(id))
      runnerModules.set(id, loading)
    }
    return loading
  }

  return {
    all: () => [...canonical.values()],
    get: (id) => byId.get(id),
    has: (id) => byId.has(id),
    byCategory() {
      const groups: Partial<Record<PluginCategory, AnyPlugin[]>> = {}
      for (const plugin of canonical.values()) (groups[plugin.category] ??= []).push(plugin)
      return groups
    },
    forBots: () => [...canonical.values()].filter((plugin) => plugin.serves.includes('bot')),
    forWorkflows: () =>
      [...canonical.values()].filter((plugin) => plugin.serves.includes('workflow')),
    folderOf: folderOfType,
    sourceOf: (id) => sourceOf(canonicalId(id)),
    canonicalId,
    problems: () => problems,
    async runnerOf(id, requested) {
      const plugin = byId.get(id)
      if (!plugin) return undefined
      const module = await loadRunnerModule(id)
      if (!module) return undefined
      // A node stored without an action (an id folded into a plugin with one action) runs it.
      const actions = Object.keys(plugin.actions ?? {})
      const action = requested ?? (!module.run && actions.length === 1 ? actions[0] : undefined)
      const candidate = action
        ? (module[action] ??
          (module.default as Record<string, Runner<any, any>> | undefined)?.[action])
        : (module.run ?? module.default)
      return typeof candidate === 'function' ? (candidate as Runner<any, any>) : undefined
    },
    async exportOf<T>(id: string, name: string) {
      if (!byId.has(id)) return undefined
      const module = (await loadRunnerModule(id)) as Record<string, unknown> | undefined
      return module?.[name] as T | undefined
    },
    async parserOf(id) {
      if (!byId.has(id)) return undefined
      const module = await loadRunnerModule(id)
      const candidate = module?.parse
      return typeof candidate === 'function' ? (candidate as InputParser<any>) : undefined
    },
  }
}
