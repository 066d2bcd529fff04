import type { CredentialsTestContext } from '#sdk/runner'
import { memberUrn } from './api.js'

/** Asks LinkedIn who the token belongs to (renewing it first when it has expired). */
export async function test({ credentials, http, signal }: CredentialsTestContext) {
  try {
    const member = await memberUrn(credentials, { http, signal })
    return { ok: true, message: `Connected as ${member.name || member.urn}.` }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}
