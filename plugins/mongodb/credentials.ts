import type { CredentialsTestContext } from '#sdk/runner'
import { mongoClient } from './lib/client.js'

/** The Test button: a ping through the client the blocks will use. */
export async function test({ credentials }: CredentialsTestContext) {
  try {
    const { client } = await mongoClient(String(credentials.baseUrl ?? ''))
    await client.db('admin').command({ ping: 1 })
    return { ok: true, message: 'Connected.' }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}
