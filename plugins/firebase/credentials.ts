import type { CredentialsTestContext } from '#sdk/runner'
import { parseServiceAccount, serviceAccountToken } from '#sdk/google'
import { FIRESTORE_SCOPE } from './index.js'

/** The Test button: the key file signs a token request, which Google must accept. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  try {
    const account = parseServiceAccount(credentials.serviceJson)
    await serviceAccountToken(account, [FIRESTORE_SCOPE], { http, signal }, true)
    return {
      ok: true,
      message: `Signed in as ${account.clientEmail} (project ${account.projectId}).`,
    }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
