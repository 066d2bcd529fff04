import Credential from '#models/credential'
import type User from '#models/user'
import { assertCanWrite } from './credentials.js'

export class DeleteCredential {
  async handle(user: User, record: Credential) {
    await assertCanWrite(user, record.workspaceId)
    await record.delete()
  }
}
