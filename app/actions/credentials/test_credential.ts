import Credential from '#models/credential'
import type User from '#models/user'
import { credentialsModuleOf } from '#services/plugin_registry'
import { createGuardedHttp } from '#plugins/guarded_http'
import { withOAuthClient } from '#services/oauth_clients'
import { credentialEgress } from '#services/egress'
import { credentialPlugin } from './credentials.js'
import { readCredentials } from '#services/credentials'

export class TestCredential {
  /** Runs the plugin's own check (credentials.ts `test`) with the decrypted data. */
  async handle(_user: User, record: Credential): Promise<{ ok: boolean; message: string }> {
    const plugin = await credentialPlugin(record.type)
    const module = await credentialsModuleOf(plugin)
    if (!module?.test) return { ok: false, message: 'These credentials have no test.' }
    const http = createGuardedHttp({
      ...credentialEgress(),
      timeoutMs: 10_000,
    })
    try {
      const result = await module.test({
        credentials: await withOAuthClient(record.type, readCredentials(record)),
        http,
        signal: AbortSignal.timeout(15_000),
      })
      return {
        ok: result.ok,
        message:
          result.message ?? (result.ok ? 'The credentials work.' : 'The credentials were refused.'),
      }
    } catch (error) {
      return { ok: false, message: (error as Error).message }
    }
  }
}
