import env from '#start/env'
import Credential from '#models/credential'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import { decryptCredentials } from '#plugins/vault'
import type { AnyPlugin } from '#plugins/registry'

/**
 * Reading credentials (runners, the knowledge stores, the copilot): who sees a record, and
 * its secrets decrypted. Credentials of plugins with scope "user" (AI providers) are seen and
 * used only by the person who created them; those of scope "workspace" (databases, vector
 * stores) by every member. Creating and changing them are actions (app/actions/credentials).
 */

export function isVisibleTo(record: Credential, plugin: AnyPlugin | undefined, user: User) {
  return (plugin?.scope ?? 'workspace') === 'workspace' || record.userId === user.id
}

export async function listCredentials(user: User, workspaceId: string) {
  const role = await roleIn(user, workspaceId)
  if (role === null) throw AppError.notFound('Workspace not found')
  const registry = await pluginRegistry()
  const rows = await Credential.query()
    .where('workspace_id', workspaceId)
    .orderBy('type')
    .orderBy('name')
  return rows.filter((row) => isVisibleTo(row, registry.get(row.type), user))
}

export function readCredentials(record: Credential) {
  return decryptCredentials({ iv: record.iv, data: record.data }, env.get('ENCRYPTION_SECRET'))
}
