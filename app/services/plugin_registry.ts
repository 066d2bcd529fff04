import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  findPluginPackages,
  loadPlugins,
  type AnyPlugin,
  type PluginRegistry,
} from '#plugins/registry'

let registry: Promise<PluginRegistry> | null = null

/**
 * Loads the plugins of an app: its plugins/ folder and the plugin packages it installed.
 * Lenient: a plugin with a problem is left out (registry.problems() says why), so one broken
 * folder or package never takes the editors, the chat and the runs of the others down.
 */
export async function loadAppPlugins(
  appRoot: string,
  listed: readonly string[] = []
): Promise<PluginRegistry> {
  const found = await findPluginPackages(appRoot, listed)
  return loadPlugins(join(appRoot, 'plugins'), { ...found, strict: false })
}

/**
 * The plugins of this installation, discovered once (plugins/ beside the app and the
 * packages of config/plugins.ts, docs/plugins.md). Plugins left out are logged as errors
 * once per load. A load that fails as a whole (plugins/ unreadable) is not kept: the next
 * call tries again.
 */
export function pluginRegistry(): Promise<PluginRegistry> {
  if (!registry) {
    const loading = loadAppPlugins(
      app.makePath(),
      app.config.get<string[]>('plugins.packages', [])
    ).then((loaded) => {
      for (const problem of loaded.problems()) {
        logger.error({ plugin: problem.where }, `plugin left out: ${problem.message}`)
      }
      return loaded
    })
    registry = loading
    loading.catch(() => {
      if (registry === loading) registry = null
    })
  }
  return registry
}

/**
 * Discovers the plugins again on next use: a test that installs a plugin package. Runners
 * and credential checks already imported stay cached by Node.
 */
let generation = 0

export function forgetPluginRegistry() {
  registry = null
  modules.clear()
  generation++
}

/**
 * A value built from the registry (an engine's ports), kept until the registry is
 * forgotten (a plugin package installed, tests): the next call builds it anew.
 */
export function perRegistry<T>(make: () => T): () => T {
  let built: { generation: number; value: T } | undefined
  return () => {
    if (built?.generation !== generation) {
      const entry = { generation, value: make() }
      built = entry
      // A value that failed to build (the registry did not load) is built again next time.
      if (entry.value instanceof Promise) {
        entry.value.catch(() => {
          if (built === entry) built = undefined
        })
      }
    }
    return built.value
  }
}

import type { CredentialsModule } from '../../packages/sdk/src/credentials.js'
export type {
  CredentialsTestContext,
  CredentialsModule,
} from '../../packages/sdk/src/credentials.js'

const modules = new Map<string, Promise<CredentialsModule | null>>()

/** The plugin's credentials.ts (server only), when it has one. */
export async function credentialsModuleOf(plugin: AnyPlugin): Promise<CredentialsModule | null> {
  const folder = (await pluginRegistry()).folderOf(plugin.id)
  if (!folder) return null
  if (!modules.has(plugin.id)) {
    const candidates = ['credentials.js', 'credentials.ts'].map((f) => join(folder, f))
    const file = candidates.find((f) => existsSync(f))
    const loading = file ? import(pathToFileURL(file).href) : Promise.resolve(null)
    // A failed import is not kept: a fixed file is picked up on the next call.
    loading.catch(() => modules.delete(plugin.id))
    modules.set(plugin.id, loading)
  }
  return modules.get(plugin.id)!
}
