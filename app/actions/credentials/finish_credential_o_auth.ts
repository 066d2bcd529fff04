import env from '#start/env'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { encryptCredentials } from '#plugins/vault'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { OAuthTokens } from '#plugins/define_plugin'
import { findCredential } from '#actions/credentials/credentials'
import { readCredentials } from '#services/credentials'
import { oauthClientOf } from '#services/oauth_clients'
import { PendingOAuth, oauthRedirectUri, oauthPluginOf, assertCanWrite } from './oauth.js'

const PENDING_TTL_MS = 15 * 60_000

export class FinishCredentialOAuth {
  /**
   * Checks the state against the session's, trades the code for tokens at the token URL and
   * stores them in the record. The provider's error (the builder refused consent) is reported
   * as it came.
   */
  async handle(
    user: User,
    pending: PendingOAuth | undefined,
    query: { state?: string; code?: string; error?: string; error_description?: string }
  ) {
    if (!pending || !query.state || pending.state !== query.state) {
      throw new AppError('This connection attempt is unknown or was already used', {
        status: 400,
        code: 'E_OAUTH_STATE',
        description: 'Start again with Connect on the credentials page.',
      })
    }
    if (Date.now() - pending.startedAt > PENDING_TTL_MS) {
      throw new AppError('This connection attempt expired', { status: 400, code: 'E_OAUTH_STATE' })
    }
    const record = await findCredential(user, pending.credentialId)
    await assertCanWrite(user, record)
    if (query.error) {
      throw new AppError('The provider did not grant access', {
        status: 400,
        code: 'E_OAUTH_DENIED',
        description: query.error_description || query.error,
      })
    }
    if (!query.code) {
      throw new AppError('The provider sent no authorization code', {
        status: 400,
        code: 'E_OAUTH_CODE',
      })
    }
    const plugin = await oauthPluginOf(record)
    const data = readCredentials(record)
    const client = oauthClientOf(plugin, data)
    if (!client) {
      throw new AppError('Fill in the OAuth client ID and secret first', {
        status: 422,
        code: 'E_OAUTH_CLIENT_MISSING',
      })
    }
    const http = createGuardedHttp({
      allowInternal: env.get('ALLOW_INTERNAL_HTTP'),
      timeoutMs: 10_000,
    })
    const response = await http.request(client.tokenUrl || plugin.oauth.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'accept': 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: query.code,
        redirect_uri: oauthRedirectUri(),
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }).toString(),
    })
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null
    if (!response.ok || !answer || typeof answer.access_token !== 'string') {
      throw new AppError('The provider refused the authorization code', {
        status: 400,
        code: 'E_OAUTH_TOKEN',
        description: String(
          answer?.error_description ?? answer?.error ?? `${response.status} ${response.statusText}`
        ),
      })
    }
    const previous = (data.oauth ?? {}) as Partial<OAuthTokens>
    const tokens: OAuthTokens = {
      accessToken: answer.access_token,
      // Providers send a refresh token on the first consent only: keep the one we had.
      refreshToken:
        typeof answer.refresh_token === 'string' ? answer.refresh_token : previous.refreshToken,
      expiresAt:
        Number(answer.expires_in) > 0 ? Date.now() + Number(answer.expires_in) * 1000 : undefined,
      scope: typeof answer.scope === 'string' ? answer.scope : plugin.oauth.scopes.join(' '),
      connectedAt: new Date().toISOString(),
    }
    const encrypted = encryptCredentials({ ...data, oauth: tokens }, env.get('ENCRYPTION_SECRET'))
    record.iv = encrypted.iv
    record.data = encrypted.data
    await record.save()
    return record
  }
}
