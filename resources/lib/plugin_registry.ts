import { plugins as pluginFiles, type PluginFiles } from 'virtual:flowcraft/plugins'
import { pluginSlug, type PluginDeclaration } from '../../app/plugins/define_plugin'

/**
 * The plugins the browser knows, gathered at build time from every manifest: the folders of
 * plugins/ and the installed plugin packages, through the module vite/flowcraft_plugins.ts
 * generates. Manifests are browser-safe: they import only the field DSL and definePlugin;
 * runners and credential checks stay on the server.
 */

export interface ClientPlugin {
  id: string
  name: string
  category: PluginDeclaration['category']
  icon: string | null
  serves: PluginDeclaration['serves']
}

type AnyDeclaration = PluginDeclaration<any, any, any>

const declarations = new Map<string, AnyDeclaration>()
const filesBySlug = new Map<string, PluginFiles>()
for (const files of pluginFiles) {
  const declaration = files.manifest.default as AnyDeclaration | undefined
  if (!declaration || typeof declaration.id !== 'string') continue
  declarations.set(declaration.id, declaration)
  filesBySlug.set(pluginSlug(declaration), files)
}

function toClientPlugin(declaration: AnyDeclaration): ClientPlugin {
  return {
    id: declaration.id,
    name: declaration.name,
    category: declaration.category,
    icon: declaration.icon ?? null,
    serves: declaration.serves,
  }
}

const plugins = [...declarations.values()].map(toClientPlugin)
// Runs and versions saved under a folded plugin's former id still find its name and icon.
for (const declaration of plugins.map((plugin) => declarations.get(plugin.id)!)) {
  for (const alias of declaration.aliases ?? []) {
    if (!declarations.has(alias)) declarations.set(alias, declaration)
  }
}

export function clientPlugins(): ClientPlugin[] {
  return plugins
}

/** Plugins knowledge stores can live in (their manifests' `vectorStore`), for the store form. */
export function storeBackendPlugins(): ClientPlugin[] {
  return plugins.filter((plugin) => declarations.get(plugin.id)?.vectorStore === true)
}

export function clientPlugin(id: string): ClientPlugin | undefined {
  const declaration = declarations.get(id)
  return declaration ? toClientPlugin(declaration) : undefined
}

/** The full declaration (fields, actions), for editors that draw forms without the server. */
export function clientDeclaration(id: string): AnyDeclaration | undefined {
  return declarations.get(id)
}

/** The files a plugin ships besides its manifest (form, icon.svg, locales), by its slug. */
export function pluginFilesOf(slug: string): PluginFiles | undefined {
  return filesBySlug.get(slug)
}

/** Every plugin's files (to load the translated texts of a language). */
export function allPluginFiles(): ReadonlyMap<string, PluginFiles> {
  return filesBySlug
}

/** The slug of a plugin (its folder name), the key of the files it ships. */
export function pluginSlugOf(id: string): string | undefined {
  const declaration = declarations.get(id)
  return declaration ? pluginSlug(declaration) : undefined
}
