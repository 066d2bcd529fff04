import type { CredentialsTestContext } from '#sdk/runner'
import { listIndexes, pineconeAccountOf } from './api.js'

/** Checks the key by listing the indexes: free, and refused for a wrong key. Server only. */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  const account = pineconeAccountOf(credentials)
  if (!account.apiKey) return { ok: false, message: 'API key missing' }
  try {
    const count = (await listIndexes(http, account, signal)).length
    return { ok: true, message: `Connected: ${count} ${count === 1 ? 'index' : 'indexes'}.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
