import { dirname, relative, resolve, sep } from 'node:path'

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
