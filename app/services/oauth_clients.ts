import type { AnyPlugin } from '#plugins/registry'
import { pluginRegistry } from '#services/plugin_registry'

/**
 * Which OAuth client a credential record of an `oauth` plugin connects and refreshes with
 * (docs/plugins.md, "OAuth credentials"): the client the builder saved in the record, else
 * the one the operator registered for the whole instance in the environment, under the
 * prefix the manifest names (`appClientEnv: 'LINKEDIN'` reads `LINKEDIN_CLIENT_ID`,
 * `LINKEDIN_CLIENT_SECRET` and, to point elsewhere, `LINKEDIN_AUTHORIZE_URL`,
 * `LINKEDIN_TOKEN_URL`). The variables are read when used, so the core knows no service.
 */

export interface OAuthClient {
  clientId: string
  clientSecret: string
  /** Empty: the record's, else the manifest's. */
  authorizeUrl: string
  tokenUrl: string
  /** The operator's client rather than the record's own. */
  shared: boolean
}

function text(value: unknown) {
  return typeof value === 'string' ? value.trim() : ''
}

/** The operator's client of a plugin, when its variables are both set. */
export function appOAuthClientOf(plugin: AnyPlugin): OAuthClient | null {
  const prefix = plugin.oauth?.appClientEnv
  if (!prefix) return null
  const clientId = text(process.env[`${prefix}_CLIENT_ID`])
  const clientSecret = text(process.env[`${prefix}_CLIENT_SECRET`])
  if (!clientId || !clientSecret) return null
  return {
    clientId,
    clientSecret,
    authorizeUrl: text(process.env[`${prefix}_AUTHORIZE_URL`]),
    tokenUrl: text(process.env[`${prefix}_TOKEN_URL`]),
    shared: true,
  }
}

/** The record's own client when it has one, else the operator's, else null. */
export function oauthClientOf(plugin: AnyPlugin, data: Record<string, unknown>) {
  const clientId = text(data.clientId)
  const clientSecret = text(data.clientSecret)
  if (clientId && clientSecret) {
    return {
      clientId,
      clientSecret,
      authorizeUrl: text(data.authorizeUrl),
      tokenUrl: text(data.tokenUrl),
      shared: false,
    }
  }
  const shared = appOAuthClientOf(plugin)
  if (!shared) return null
  return {
    ...shared,
    authorizeUrl: text(data.authorizeUrl) || shared.authorizeUrl,
    tokenUrl: text(data.tokenUrl) || shared.tokenUrl,
  }
}

/**
 * A record's data as runners and credential tests read it: with the operator's client filled
 * in when the record has none of its own, so that the plugin refreshes its tokens the same
 * way whichever client connected it.
 */
export async function withOAuthClient(type: string, data: Record<string, unknown>) {
  const plugin = (await pluginRegistry()).get(type)
  if (!plugin?.oauth?.appClientEnv) return data
  const client = oauthClientOf(plugin, data)
  if (!client?.shared) return data
  return {
    ...data,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    ...(client.tokenUrl ? { tokenUrl: client.tokenUrl } : {}),
  }
}
