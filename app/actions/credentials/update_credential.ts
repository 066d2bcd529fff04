import env from '#start/env'
import Credential from '#models/credential'
import type User from '#models/user'
import { encryptCredentials } from '#plugins/vault'
import type { AnyPlugin } from '#plugins/registry'
import { credentialPlugin, validateData, assertCanWrite } from './credentials.js'
import { readCredentials } from '#services/credentials'

function secretFieldsOf(plugin: AnyPlugin) {
  return Object.entries(plugin.credentials ?? {})
    .filter(([, f]: [string, any]) => f.kind === 'string' && f.secret)
    .map(([name]) => name)
}

export class UpdateCredential {
  /** Renames and/or changes the data; a secret left empty keeps its stored value. */
  async handle(
    user: User,
    record: Credential,
    input: { name?: string; data?: Record<string, unknown> }
  ) {
    await assertCanWrite(user, record.workspaceId)
    if (input.name !== undefined) record.name = input.name
    if (input.data !== undefined) {
      const plugin = await credentialPlugin(record.type)
      const current = readCredentials(record)
      const merged: Record<string, unknown> = { ...current, ...input.data }
      for (const name of secretFieldsOf(plugin)) {
        const sent = input.data[name]
        if (sent === undefined || sent === null || sent === '') merged[name] = current[name]
      }
      const valid = await validateData(plugin, merged)
      // The tokens of an OAuth connection are no field of the form: an edit keeps them.
      if (plugin.oauth && current.oauth) valid.oauth = current.oauth
      const encrypted = encryptCredentials(valid, env.get('ENCRYPTION_SECRET'))
      record.iv = encrypted.iv
      record.data = encrypted.data
    }
    await record.save()
    return record
  }
}
