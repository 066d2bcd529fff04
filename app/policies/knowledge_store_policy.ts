import type User from '#models/user'
import type Workspace from '#models/workspace'
import type KnowledgeStore from '#models/knowledge_store'
import { BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import { roleIn } from '#services/workspace_access'

/**
 * Knowledge stores belong to a workspace: its members read and search them; admins and
 * members (user mode "write") create, change and delete them and their sources; guests
 * only look.
 */
export default class KnowledgeStorePolicy extends BasePolicy {
  async viewAny(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    return (await roleIn(user, workspace.id)) !== null
  }

  async create(user: User, workspace: Workspace): Promise<AuthorizerResponse> {
    const role = await roleIn(user, workspace.id)
    return role === 'ADMIN' || role === 'MEMBER'
  }

  async view(user: User, store: KnowledgeStore): Promise<AuthorizerResponse> {
    return (await roleIn(user, store.workspaceId)) !== null
  }

  async edit(user: User, store: KnowledgeStore): Promise<AuthorizerResponse> {
    const role = await roleIn(user, store.workspaceId)
    return role === 'ADMIN' || role === 'MEMBER'
  }
}
