import AppError from '#exceptions/app_error'
import type User from '#models/user'
import type { Fields } from '#plugins/fields'
import type { Fetcher, LogEntry } from '#plugins/define_plugin'
import type { AnyPlugin } from '#plugins/registry'
import { pluginRegistry } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import { buildContext, createVariableStore, credentialsFor } from '#services/runner_context'

export interface RunFetcherInput {
  pluginId: string
  fetcher: string
  workspaceId: string
  /** The block's current options (credentialsId and the fields the fetcher depends on). */
  options: Record<string, unknown>
}

export interface FetchedItem {
  value: string
  label: string
}

/** Fetcher names declared by a plugin's fields (optionsFrom), nested fields included. */
export function declaredFetchers(plugin: AnyPlugin): Set<string> {
  const names = new Set<string>()
  const visit = (fields: Fields | undefined) => {
    for (const declared of Object.values(fields ?? {})) {
      const from = (declared as { optionsFrom?: { fetcher?: string } }).optionsFrom
      if (from?.fetcher) names.add(from.fetcher)
      const nested = (declared as { fields?: Fields }).fields
      if (nested) visit(nested)
    }
  }
  visit(plugin.options)
  for (const action of Object.values(plugin.actions ?? {})) visit((action as any).options)
  visit(plugin.items?.fields)
  return names
}

/**
 * The live options of a field declared with `optionsFrom: { fetcher }` (model lists,
 * voices): the plugin's `fetchers[name]` export runs with the block's options and the
 * credentials they name, as a member of the workspace may use them (user-scoped
 * credentials only when they are the member's own). Only fetchers the plugin's fields
 * declare can be called.
 */
export class RunFetcher {
  async handle(user: User, input: RunFetcherInput): Promise<FetchedItem[]> {
    if ((await roleIn(user, input.workspaceId)) === null) {
      throw AppError.notFound('Workspace not found')
    }
    const registry = await pluginRegistry()
    const plugin = registry.get(input.pluginId)
    if (!plugin) throw AppError.notFound('Plugin not found')
    const fetchers = declaredFetchers(plugin).has(input.fetcher)
      ? await registry.exportOf<Record<string, Fetcher<any>>>(plugin.id, 'fetchers')
      : undefined
    const fetcher = fetchers?.[input.fetcher]
    if (typeof fetcher !== 'function') throw AppError.notFound('Not found')

    const runInput = {
      plugin,
      options: input.options,
      variables: [],
      workspaceId: input.workspaceId,
      ownerId: user.id,
      timeoutMs: 15_000,
    }
    const logs: LogEntry[] = []
    const credentials = await credentialsFor(runInput, logs)
    if (credentials === null) throw AppError.notFound('Credentials not found')
    const { store } = createVariableStore([])
    const context = buildContext(runInput, input.options, credentials, store, logs)
    let items: Awaited<ReturnType<Fetcher>>
    try {
      items = await fetcher(context)
    } catch (error) {
      // The provider's own words (a refused key, an unknown host) help the builder most.
      throw new AppError((error as Error).message || String(error), {
        status: 422,
        code: 'E_FETCHER_FAILED',
      })
    }
    return (Array.isArray(items) ? items : [])
      .filter((item) => item && typeof item.value === 'string' && item.value !== '')
      .map((item) => ({ value: item.value, label: item.label || item.value }))
  }
}
