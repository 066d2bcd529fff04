import env from '#start/env'
import Credential from '#models/credential'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import { encryptCredentials } from '#plugins/vault'
import { credentialPlugin, validateData, assertCanWrite } from './credentials.js'

export class CreateCredential {
  async handle(
    user: User,
    workspace: Workspace,
    input: { type: string; name: string; data: unknown }
  ) {
    await assertCanWrite(user, workspace.id)
    const plugin = await credentialPlugin(input.type)
    const data = await validateData(plugin, input.data)
    const encrypted = encryptCredentials(data, env.get('ENCRYPTION_SECRET'))
    return Credential.create({
      workspaceId: workspace.id,
      userId: user.id,
      type: plugin.id,
      name: input.name,
      iv: encrypted.iv,
      data: encrypted.data,
    })
  }
}
