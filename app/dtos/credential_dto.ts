import type Credential from '#models/credential'
import type { AnyPlugin } from '#plugins/registry'
import { redactSecrets } from '#plugins/vault'
import { formOf } from '#plugins/derive'
import type { FormField } from '#plugins/derive'

/** What the API answers: never the data. */
export function toCredentialApiDto(record: Credential) {
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    createdAt: record.createdAt.toISO(),
  }
}

/**
 * What the settings page shows: non-secret values to edit, and for each secret only
 * whether it is set.
 */
export function toCredentialDto(
  record: Credential,
  plugin: AnyPlugin | undefined,
  data: Record<string, unknown> | null
) {
  const values: Record<string, unknown> = {}
  for (const [name, f] of Object.entries(plugin?.credentials ?? {}) as [string, any][]) {
    if (!(f.kind === 'string' && f.secret) && data && data[name] !== undefined)
      values[name] = data[name]
  }
  return {
    ...toCredentialApiDto(record),
    pluginName: plugin?.name ?? record.type,
    scope: plugin?.scope ?? 'workspace',
    secrets: plugin ? redactSecrets(plugin, data) : {},
    values,
    // OAuth credentials: whether Connect went through, or a token was pasted where the
    // plugin takes one (never the tokens themselves; docs/plugins.md, "OAuth credentials").
    oauthConnected: plugin?.oauth
      ? Boolean(
          (data?.oauth as any)?.accessToken ||
          (plugin.oauth.tokenField && data?.[plugin.oauth.tokenField])
        )
      : null,
  }
}

export interface CredentialTypeDto {
  id: string
  name: string
  icon: string | null
  scope: 'user' | 'workspace'
  fields: FormField[]
  hasTest: boolean
  /** Connected through the provider's consent page (the plugin declares `oauth`). */
  oauth: boolean
}

export function toCredentialTypeDto(plugin: AnyPlugin, hasTest: boolean): CredentialTypeDto {
  return {
    id: plugin.id,
    name: plugin.name,
    icon: plugin.icon ?? null,
    scope: plugin.scope,
    fields: formOf(plugin).credentials ?? [],
    hasTest,
    oauth: Boolean(plugin.oauth),
  }
}
