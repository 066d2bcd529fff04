import Credential from '#models/credential'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import { validatorFor } from '#plugins/derive'
import type { AnyPlugin } from '#plugins/registry'
import { isVisibleTo } from '#services/credentials'

/**
 * Credentials belong to a workspace. Those of plugins with scope "user" (AI providers)
 * are seen and used only by the person who created them; those of scope "workspace"
 * (databases, vector stores) by every member.
 */

export async function credentialPlugin(type: string): Promise<AnyPlugin> {
  const plugin = (await pluginRegistry()).get(type)
  if (!plugin || !plugin.credentials) {
    throw new AppError('Unknown credentials type', {
      status: 422,
      code: 'E_UNKNOWN_CREDENTIALS_TYPE',
      description: 'No installed plugin takes credentials of this type.',
      field: 'type',
    })
  }
  return plugin
}

/** Validates the data against the plugin's credential fields (required ones enforced). */
export async function validateData(plugin: AnyPlugin, data: unknown) {
  const validator = validatorFor({
    ...plugin,
    options: plugin.credentials,
    actions: undefined,
    items: undefined,
  } as AnyPlugin)
  const valid = (await validator.validate(data ?? {})) as Record<string, unknown>
  // Only declared fields are stored.
  return Object.fromEntries(
    Object.keys(plugin.credentials ?? {})
      .filter((k) => valid[k] !== undefined)
      .map((k) => [k, valid[k]])
  )
}

export async function assertCanWrite(user: User, workspaceId: string) {
  const role = await roleIn(user, workspaceId)
  if (role === null) throw AppError.notFound('Workspace not found')
  if (role === 'GUEST') throw AppError.forbidden('Guests cannot manage credentials.')
}

/** A record the user may see, else "not found" (ids of others' records do not leak). */
export async function findCredential(user: User, id: string) {
  const record = await Credential.find(id)
  if (!record) throw AppError.notFound('Credentials not found')
  const role = await roleIn(user, record.workspaceId)
  const plugin = (await pluginRegistry()).get(record.type)
  if (role === null || !isVisibleTo(record, plugin, user))
    throw AppError.notFound('Credentials not found')
  return record
}
