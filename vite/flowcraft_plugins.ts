import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { findPluginPackages, type PluginPackage } from '../app/plugins/packages.js'
import { LANGUAGES } from '../app/shared/workspace_roles.js'

/**
 * The browser's view of the plugins (docs/plugins.md, "Plugins as packages"): two modules
 * generated when the bundle is built (and by the dev server, for development and tests).
 *
 * - `virtual:flowcraft/plugins`: every manifest, custom form, icon.svg and translated locale
 *   file, for the editors;
 * - `virtual:flowcraft/viewers`: the input plugins' chat components (viewer.tsx), for the
 *   public bot page, which does not load the manifests.
 *
 * Folders of plugins/ are found by import.meta.glob (a new folder is picked up without a
 * restart); installed plugin packages, found as the server finds them, get explicit imports.
 * The core therefore never names a plugin, nor a folder.
 */

const PLUGINS_ID = 'virtual:flowcraft/plugins'
const VIEWERS_ID = 'virtual:flowcraft/viewers'
/**
 * One module per language with the texts of every plugin folder in it (locales/<lang>.json,
 * by slug): a builder reading French downloads one chunk, not one per plugin, and the
 * plugins module lists eight loaders instead of one per plugin and language (English is the
 * manifests themselves).
 */
const LOCALES_PREFIX = 'virtual:flowcraft/plugin-locales/'
const TRANSLATED = LANGUAGES.filter((language) => language !== 'en')
const SCRIPT = ['tsx', 'ts', 'jsx', 'js']

function fileOf(folder: string, name: string) {
  for (const extension of SCRIPT) {
    const path = join(folder, `${name}.${extension}`)
    if (existsSync(path)) return path
  }
  return undefined
}

const quoted = (value: string) => JSON.stringify(value)

/** The same entry shape for a folder (from the globs) and for a package (imported by path). */
const FOLDER_ENTRIES = `
const slugOf = (path) => path.split('/')[2]
function folderEntries(manifests, extras, localeBundles) {
  const entries = new Map()
  for (const [path, manifest] of Object.entries(manifests)) {
    const slug = slugOf(path)
    const locales = Object.fromEntries(
      Object.entries(localeBundles).map(([language, load]) => [
        language,
        () => load().then((bundle) => ({ default: bundle.default[slug] ?? {} })),
      ])
    )
    entries.set(slug, { folder: slug, manifest, locales })
  }
  for (const [key, files] of Object.entries(extras)) {
    for (const [path, value] of Object.entries(files)) {
      const entry = entries.get(slugOf(path))
      if (entry) entry[key] = value
    }
  }
  return [...entries.values()]
}
`

function pluginsModule(packages: PluginPackage[]) {
  const lines = [
    FOLDER_ENTRIES,
    `const manifests = import.meta.glob('/plugins/*/index.ts', { eager: true })`,
    `const forms = import.meta.glob('/plugins/*/form.tsx')`,
    `const icons = import.meta.glob('/plugins/*/icon.svg', { eager: true, query: '?url', import: 'default' })`,
    `const localeBundles = { ${TRANSLATED.map(
      (language) => `${quoted(language)}: () => import(${quoted(LOCALES_PREFIX + language)})`
    ).join(', ')} }`,
  ]
  const entries: string[] = []
  packages.forEach((pkg, index) => {
    const folder = join(pkg.entry, '..')
    lines.push(`import * as manifest${index} from ${quoted(pkg.entry)}`)
    const parts = [`manifest: manifest${index}`, `package: ${quoted(pkg.name)}`]
    const form = fileOf(folder, 'form')
    if (form) parts.push(`form: () => import(${quoted(form)})`)
    if (existsSync(join(folder, 'icon.svg'))) {
      lines.push(`import icon${index} from ${quoted(join(folder, 'icon.svg') + '?url')}`)
      parts.push(`icon: icon${index}`)
    }
    const localeFolder = join(folder, 'locales')
    const languages = existsSync(localeFolder)
      ? readdirSync(localeFolder).filter((file) => file.endsWith('.json') && file !== 'en.json')
      : []
    const loaders = languages.map(
      (file) =>
        `${quoted(file.replace(/\.json$/, ''))}: () => import(${quoted(join(localeFolder, file))})`
    )
    parts.push(`locales: { ${loaders.join(', ')} }`)
    entries.push(`{ ${parts.join(', ')} }`)
  })
  lines.push(
    `export const plugins = [...folderEntries(manifests, { form: forms, icon: icons }, localeBundles), ${entries.join(', ')}]`
  )
  return lines.join('\n')
}

/** Every plugin folder's texts in one language, keyed by the folder's name (its slug). */
function localesModule(language: string) {
  return [
    `const files = import.meta.glob(${quoted(`/plugins/*/locales/${language}.json`)}, { eager: true, import: 'default' })`,
    `export default Object.fromEntries(Object.entries(files).map(([path, texts]) => [path.split('/')[2], texts]))`,
  ].join('\n')
}

function viewersModule(packages: PluginPackage[]) {
  // Loaders, not components: a chat downloads the code of an input when it first shows one
  // (docs/architecture.md, "The visitor surface").
  const lines = [
    `import { pluginSlug } from '#sdk/plugin'`,
    `const folders = import.meta.glob('/plugins/*/viewer.tsx', { import: 'default' })`,
    `export const viewers = Object.fromEntries(Object.entries(folders).map(([path, load]) => [path.split('/')[2], load]))`,
  ]
  packages.forEach((pkg, index) => {
    const viewer = fileOf(join(pkg.entry, '..'), 'viewer')
    if (!viewer) return
    // A package's viewer is keyed by its manifest's slug, as a folder's is by its name.
    lines.push(`import manifest${index} from ${quoted(pkg.entry)}`)
    lines.push(
      `viewers[pluginSlug(manifest${index})] = () => import(${quoted(viewer)}).then((module) => module.default)`
    )
  })
  return lines.join('\n')
}

export function flowcraftPlugins(options: { root: string; packages: readonly string[] }): Plugin {
  let packages: Promise<PluginPackage[]> | undefined
  const installed = () =>
    (packages ??= findPluginPackages(options.root, options.packages).then((found) => {
      // The server refuses to boot on these; the bundle says it too.
      if (found.problems.length > 0) throw new Error(found.problems.join('\n'))
      return found.packages
    }))
  return {
    name: 'flowcraft-plugins',
    resolveId(id) {
      if (id === PLUGINS_ID || id === VIEWERS_ID) return `\0${id}`
      if (id.startsWith(LOCALES_PREFIX)) return `\0${id}`
    },
    async load(id) {
      if (id === `\0${PLUGINS_ID}`) return pluginsModule(await installed())
      if (id === `\0${VIEWERS_ID}`) return viewersModule(await installed())
      if (id.startsWith(`\0${LOCALES_PREFIX}`)) {
        const language = id.slice(LOCALES_PREFIX.length + 1)
        if ((TRANSLATED as readonly string[]).includes(language)) return localesModule(language)
      }
    },
  }
}
