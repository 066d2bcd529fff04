/** The modules vite/flowcraft_plugins.ts generates (docs/plugins.md, "Plugins as packages"). */

declare module 'virtual:flowcraft/plugins' {
  import type { ComponentType } from 'react'

  export interface PluginFiles {
    /** The folder under plugins/, or undefined for a package. */
    folder?: string
    /** The npm package it comes from, or undefined for a folder. */
    package?: string
    manifest: { default?: unknown }
    form?: () => Promise<{ default: ComponentType<any> }>
    /** The URL of its icon.svg. */
    icon?: string
    /** Translated texts by language (English is the manifest itself). */
    locales: Record<string, () => Promise<{ default: Record<string, unknown> }>>
  }

  export const plugins: PluginFiles[]
}

declare module 'virtual:flowcraft/viewers' {
  import type { ComponentType } from 'react'

  /** Loaders of the input plugins' chat components (viewer.tsx), by plugin slug. */
  export const viewers: Record<string, () => Promise<ComponentType<any>>>
}

/** One lucide icon by its file (resources/features/viewer/icons.ts). */
declare module 'lucide-react/dist/esm/icons/*' {
  import type { LucideIcon } from 'lucide-react'

  const icon: LucideIcon
  export default icon
}
