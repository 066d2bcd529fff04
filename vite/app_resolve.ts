import { join } from 'node:path'
import type { Alias } from 'vite'

/**
 * How the app's two bundles (the dashboard's and the visitor's, vite.config.ts) resolve the
 * names the app and its plugins import. Kept apart from the config so that a test bundles a
 * plugin package's browser files as the app's build does (tests/functional/sdk_package.spec.ts).
 */

function appAliases(root: string): Alias[] {
  return [
    { find: /^~\//, replacement: join(root, 'resources/') },
    // A plugin's form.tsx and viewer.tsx get the app's parts through #sdk/forms and
    // #sdk/viewer (docs/plugins.md); a plugin package names them @flowcraft/sdk/forms and
    // /viewer, which in the package only declare these parts: here they are the app's own.
    {
      find: /^(?:#sdk|@flowcraft\/sdk)\/(forms|viewer)$/,
      replacement: join(root, 'resources/sdk/$1.ts'),
    },
    { find: /^(?:#sdk|@flowcraft\/sdk)\//, replacement: join(root, 'app/sdk/') },
    { find: /^#shared\//, replacement: join(root, 'app/shared/') },
  ]
}

/**
 * The visitor surface renders with Preact through preact/compat, in its own build only: React
 * DOM alone was about 60 KB brotli of the page's 114 KB, preact/compat about 5 KB
 * (docs/benchmarks/viewer.md). The chat's code, its npm packages (react-i18next, Radix's
 * Slot, lucide-react) and the plugins' chat inputs still import `react`: every such import
 * becomes preact/compat here. The dashboard, the editor's preview of the same chat and the
 * dev server (TEST_ASSETS=dev) keep React (docs/architecture.md, "The visitor surface").
 */
const PREACT_ALIASES: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
]

/**
 * `dedupe`: packages every module gets from the app's own node_modules, wherever the importer
 * lies. A plugin package's compiled form or viewer imports React's JSX runtime, and the package
 * may sit outside the app's folder (a linked install) or have its own React beside it (npm
 * installs a missing peer): two Reacts in one page break hooks, so it always gets the app's
 * (on the visitor's page, the app's Preact).
 */
export function appResolve(root: string, bundle: 'dashboard' | 'visitor') {
  const alias = appAliases(root)
  return bundle === 'dashboard'
    ? { alias, dedupe: ['react', 'react-dom'] }
    : { alias: [...PREACT_ALIASES, ...alias], dedupe: ['react', 'react-dom', 'preact'] }
}
