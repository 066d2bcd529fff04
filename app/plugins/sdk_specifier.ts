import { register } from 'node:module'

/**
 * Plugin packages import the SDK as `@flowcraft/sdk/<module>` (docs/plugins.md, "Plugins as
 * packages"): no such package is installed; that name is the app's own `#sdk/*`, so a package
 * and a folder of plugins/ share one copy of the SDK (and of what it keeps: the mail
 * transport, the storage, the AI clients). Node learns the name through a resolve hook that
 * hands `@flowcraft/sdk/x` to the app's `imports` map as `#sdk/x`; the Vite config does the
 * same for the browser bundle. docs/architecture.md, "The SDK".
 */

export const SDK_PACKAGE = '@flowcraft/sdk'

const HOOK = `
let parentURL
export function initialize(data) {
  parentURL = data.parentURL
}
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('${SDK_PACKAGE}/')) {
    return next('#sdk/' + specifier.slice(${SDK_PACKAGE.length + 1}), { ...context, parentURL })
  }
  return next(specifier, context)
}
`

let registered = false

/** Teaches Node the `@flowcraft/sdk/*` specifier, once per process. */
export function registerSdkSpecifier() {
  if (registered) return
  registered = true
  // Any file of the app is a parent inside the app's package scope, where #sdk/* resolves.
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, {
    data: { parentURL: import.meta.url },
  })
}
