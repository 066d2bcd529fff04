import { appUrl } from '#config/app'
import type Credential from '#models/credential'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import type { AnyPlugin } from '#plugins/registry'

/**
 * OAuth credentials (a plugin declaring `oauth`): the record keeps the OAuth client the
 * builder registered with the provider, or connects with the operator's one
 * (app/services/oauth_clients.ts); Connect sends the builder to the provider's consent page,
 * and the callback trades the code for tokens, stored encrypted in the same record under
 * `oauth`. Runners refresh the access token when it expires (#sdk/google, #sdk/oauth).
 */

/** Where the provider sends the builder back: one URL for every credential kind. */
export const OAUTH_CALLBACK_PATH = '/settings/credentials/oauth/callback'

/** The pending flow, kept in the builder's session between authorize and callback. */
export interface PendingOAuth {
  state: string
  credentialId: string
  startedAt: number
}

export function oauthRedirectUri() {
  return `${appUrl.replace(/\/+$/, '')}${OAUTH_CALLBACK_PATH}`
}

export async function oauthPluginOf(
  record: Credential
): Promise<AnyPlugin & { oauth: NonNullable<AnyPlugin['oauth']> }> {
  const plugin = (await pluginRegistry()).get(record.type)
  if (!plugin?.oauth) {
    throw new AppError('These credentials do not connect through OAuth', {
      status: 422,
      code: 'E_NOT_OAUTH_CREDENTIALS',
    })
  }
  return plugin as any
}

export async function assertCanWrite(user: User, record: Credential) {
  const role = await roleIn(user, record.workspaceId)
  if (role === null) throw AppError.notFound('Credentials not found')
  if (role === 'GUEST') throw AppError.forbidden('Guests cannot manage credentials.')
}
