import { definePlugin, field } from '#sdk/plugin'

/**
 * A node of another tool that no plugin takes over on import: it keeps the original type
 * and parameters so that nothing is lost, and is imported disabled (a disabled node passes
 * its input on). Enabled, it fails the run until it is replaced.
 */
export default definePlugin({
  id: 'imported-node',
  name: 'Imported node',
  fullName: 'Imported node without an equivalent',
  tags: ['import', 'n8n', 'placeholder'],
  description: 'A node kept from an import, to replace',
  category: 'flow',
  scope: 'user',
  icon: 'package-open',
  version: 1,
  serves: ['workflow'],
  importsFrom: { n8n: ['*'] },
  replayable: true,
  options: {
    source: field.string({
      label: 'Original node type',
      helperText: 'The tool and node type this node was imported from',
    }),
    parameters: field.code({
      label: 'Original parameters',
      lang: 'json',
      helperText: 'Kept as imported, to rebuild the node with the nodes of this app',
    }),
  },
})
