import { configApp, RULES_LIST } from '@adonisjs/eslint-config'
import { pluginBoundaries } from './eslint/plugin_boundaries.js'

export default configApp(
  {
    ignores: ['build/**', 'public/assets/**', 'tmp/**', 'storage/**', 'node_modules/**'],
  },
  {
    // The AdonisJS preset skips resources/; the React front end follows the same rules.
    name: 'Front end',
    files: ['resources/**/*.ts', 'resources/**/*.tsx', 'plugins/**/form.tsx'],
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
    plugins: { flowcraft: { rules: { 'plugin-boundaries': pluginBoundaries } } },
    rules: { 'flowcraft/plugin-boundaries': 'error' },
  }
)
