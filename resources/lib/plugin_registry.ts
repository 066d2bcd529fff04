import { pluginSlug, type PluginDeclaration } from '../../app/plugins/define_plugin'

/**
 * The plugins the browser knows, gathered at build time from every manifest
 * (plugins/<slug>/index.ts). Manifests are browser-safe: they import only the field DSL
 * and definePlugin; runners and credential checks stay on the server.
 */

export interface ClientPlugin {
  id: string
  name: string
  category: PluginDeclaration['category']
  icon: string | null
  serves: PluginDeclaration['serves']
}

type AnyDeclaration = PluginDeclaration<any, any, any>

const modules = import.meta.glob<{ default?: AnyDeclaration }>('../../plugins/*/index.ts', {
  eager: true,
})

const declarations = new Map<string, AnyDeclaration>()
for (const module of Object.values(modules)) {
  const declaration = module.default
  if (declaration && typeof declaration.id === 'string')
    declarations.set(declaration.id, declaration)
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

export function clientPlugin(id: string): ClientPlugin | undefined {
  const declaration = declarations.get(id)
  return declaration ? toClientPlugin(declaration) : undefined
}

/** The full declaration (fields, actions), for editors that draw forms without the server. */
export function clientDeclaration(id: string): AnyDeclaration | undefined {
  return declarations.get(id)
}

/** The folder name of a plugin (its slug), to find files it ships (icon.svg, form.tsx). */
export function pluginSlugOf(id: string): string | undefined {
  const declaration = declarations.get(id)
  return declaration ? pluginSlug(declaration) : undefined
}
