import { configApp, RULES_LIST } from '@adonisjs/eslint-config'
import { noPluginIds, pluginBoundaries } from './eslint/plugin_boundaries.js'

const flowcraft = {
  rules: { 'plugin-boundaries': pluginBoundaries, 'no-plugin-ids': noPluginIds },
}

export default configApp(
  {
    ignores: [
      'build/**',
      'public/assets/**',
      'tmp/**',
      'storage/**',
      'node_modules/**',
      'packages/*/dist/**',
    ],
  },
  {
    // The AdonisJS preset skips resources/; the React front end follows the same rules.
    name: 'Front end',
    files: ['resources/**/*.ts', 'resources/**/*.tsx', 'plugins/**/*.tsx'],
    rules: RULES_LIST,
  },
  {
    rules: {
      // `(await query()).field` reads clearly in tests and one-off lookups.
      '@unicorn/no-await-expression-member': 'off',
    },
  },
  {
    name: 'Plugin boundaries',
    files: ['plugins/**/*.ts', 'plugins/**/*.tsx'],
    plugins: { flowcraft },
    rules: { 'flowcraft/plugin-boundaries': 'error' },
  },
  {
    name: 'Core names no plugin',
    files: [
      'app/**/*.ts',
      'resources/**/*.ts',
      'resources/**/*.tsx',
      'start/**/*.ts',
      'config/**/*.ts',
      'commands/**/*.ts',
    ],
    plugins: { flowcraft },
    rules: { 'flowcraft/no-plugin-ids': 'error' },
  }
)
