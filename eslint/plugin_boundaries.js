import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/**
 * A plugin imports the SDK (`#sdk/*`), npm packages and its own files, nothing else: not the
 * app's internals (`#models/*`, `@adonisjs/*` services, `../../app/...`, `~/...`) and not
 * another plugin (shared code goes in the plugin's own `lib/` or the SDK). See
 * docs/architecture.md, "Import rules".
 */

const APP_INTERNALS = /^(#(?!sdk\/)|~\/|@adonisjs\/)/

function pluginOf(filename) {
  const parts = relative(process.cwd(), filename).split(sep)
  return parts[0] === 'plugins' && parts.length > 2 ? parts[1] : null
}

export const pluginBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Plugins import only the SDK, packages and their own files' },
    schema: [],
    messages: {
      internal:
        '"{{source}}" is an app internal: a plugin imports only #sdk/* (see docs/plugins.md)',
      outside:
        '"{{source}}" leaves plugins/{{plugin}}: move shared code to the plugin\'s own lib/ or the SDK',
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename()
    const plugin = pluginOf(filename)
    if (!plugin) return {}
    const root = resolve(process.cwd(), 'plugins', plugin)
    const check = (node) => {
      const source = node.source?.value
      if (typeof source !== 'string') return
      if (APP_INTERNALS.test(source)) {
        context.report({ node: node.source, messageId: 'internal', data: { source } })
        return
      }
      if (!source.startsWith('.')) return
      const target = resolve(dirname(filename), source)
      if (target === root || target.startsWith(root + sep)) return
      context.report({ node: node.source, messageId: 'outside', data: { source, plugin } })
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    }
  },
}

/**
 * The ids of the plugins of plugins/ that cannot be mistaken for a word of the core: those of
 * several words ('text input', 'send-email', 'Set variable', 'AB test'). Single words ('text',
 * 'image', 'Code', 'Condition') are also message kinds and field labels of the core's own
 * vocabulary, so they are left out rather than reported by mistake.
 */
function distinctivePluginIds() {
  const ids = new Set()
  const root = resolve(process.cwd(), 'plugins')
  for (const folder of existsSync(root) ? readdirSync(root) : []) {
    const index = join(root, folder, 'index.ts')
    if (!existsSync(index)) continue
    const source = readFileSync(index, 'utf8')
    for (const match of source.matchAll(/^\s*(?:id|aliases):\s*(.+)$/gm)) {
      for (const literal of match[1].matchAll(/'([^']+)'/g)) {
        if (/[\s-]/.test(literal[1])) ids.add(literal[1])
      }
    }
  }
  return ids
}

let pluginIds
/**
 * The core never names a plugin (docs/architecture.md, "Import rules"): a string literal equal
 * to a plugin id in app/, resources/, start/, config/ or commands/ is reported; the core asks
 * the registry for a capability instead.
 */
export const noPluginIds = {
  meta: {
    type: 'problem',
    docs: { description: 'Core files do not name plugins' },
    schema: [],
    messages: {
      named:
        '"{{id}}" is a plugin id: the core asks the registry for a capability instead (docs/architecture.md)',
    },
  },
  create(context) {
    pluginIds ??= distinctivePluginIds()
    const check = (node, value) => {
      if (typeof value === 'string' && pluginIds.has(value)) {
        context.report({ node, messageId: 'named', data: { id: value } })
      }
    }
    return {
      Literal: (node) => check(node, node.value),
      TemplateLiteral: (node) => {
        if (node.expressions.length === 0) check(node, node.quasis[0]?.value.cooked)
      },
    }
  },
}
