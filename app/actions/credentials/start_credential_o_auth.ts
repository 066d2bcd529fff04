import { randomBytes } from 'node:crypto'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { findCredential } from '#actions/credentials/credentials'
import { readCredentials } from '#services/credentials'
import { oauthClientOf } from '#services/oauth_clients'
import { PendingOAuth, oauthRedirectUri, oauthPluginOf, assertCanWrite } from './oauth.js'

export class StartCredentialOAuth {
  /** The provider's consent URL and the state to remember in the session. */
  async handle(user: User, credentialId: string) {
    const record = await findCredential(user, credentialId)
    await assertCanWrite(user, record)
    const plugin = await oauthPluginOf(record)
    const client = oauthClientOf(plugin, readCredentials(record))
    if (!client) {
      throw new AppError('Fill in the OAuth client ID and secret first', {
        status: 422,
        code: 'E_OAUTH_CLIENT_MISSING',
        description: 'Edit the credentials and paste the client of your OAuth app, then Connect.',
      })
    }
    const state = randomBytes(24).toString('base64url')
    const url = new URL(client.authorizeUrl || plugin.oauth.authorizeUrl)
    url.searchParams.set('client_id', client.clientId)
    url.searchParams.set('redirect_uri', oauthRedirectUri())
    url.searchParams.set('response_type', 'code')
    url.searchParams.set('scope', plugin.oauth.scopes.join(' '))
    url.searchParams.set('state', state)
    for (const [key, value] of Object.entries(plugin.oauth.authorizeParams ?? {})) {
      url.searchParams.set(key, value)
    }
    const pending: PendingOAuth = { state, credentialId: record.id, startedAt: Date.now() }
    return { url: url.toString(), pending }
  }
}
