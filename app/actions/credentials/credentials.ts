import env from '#start/env'
import Credential from '#models/credential'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { pluginRegistry, credentialsModuleOf } from '#services/plugin_registry'
import { roleIn } from '#services/workspace_access'
import { decryptCredentials, encryptCredentials } from '#plugins/vault'
import { validatorFor } from '#plugins/derive'
import { createGuardedHttp } from '#plugins/guarded_http'
import type { AnyPlugin } from '#plugins/registry'
import { withOAuthClient } from '#services/oauth_clients'
import { credentialEgress } from '#services/egress'

/**
 * Credentials belong to a workspace. Those of plugins with scope "user" (AI providers)
 * are seen and used only by the person who created them; those of scope "workspace"
 * (databases, vector stores) by every member.
 */

async function credentialPlugin(type: string): Promise<AnyPlugin> {
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

function isVisibleTo(record: Credential, plugin: AnyPlugin | undefined, user: User) {
  return (plugin?.scope ?? 'workspace') === 'workspace' || record.userId === user.id
}

function secretFieldsOf(plugin: AnyPlugin) {
  return Object.entries(plugin.credentials ?? {})
    .filter(([, f]: [string, any]) => f.kind === 'string' && f.secret)
    .map(([name]) => name)
}

/** Validates the data against the plugin's credential fields (required ones enforced). */
async function validateData(plugin: AnyPlugin, data: unknown) {
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

async function assertCanWrite(user: User, workspaceId: string) {
  const role = await roleIn(user, workspaceId)
  if (role === null) throw AppError.notFound('Workspace not found')
  if (role === 'GUEST') throw AppError.forbidden('Guests cannot manage credentials.')
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

export function readCredentials(record: Credential) {
  return decryptCredentials({ iv: record.iv, data: record.data }, env.get('ENCRYPTION_SECRET'))
}

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

export class DeleteCredential {
  async handle(user: User, record: Credential) {
    await assertCanWrite(user, record.workspaceId)
    await record.delete()
  }
}

export class TestCredential {
  /** Runs the plugin's own check (credentials.ts `test`) with the decrypted data. */
  async handle(_user: User, record: Credential): Promise<{ ok: boolean; message: string }> {
    const plugin = await credentialPlugin(record.type)
    const module = await credentialsModuleOf(plugin)
    if (!module?.test) return { ok: false, message: 'These credentials have no test.' }
    const http = createGuardedHttp({
      ...credentialEgress(),
      timeoutMs: 10_000,
    })
    try {
      const result = await module.test({
        credentials: await withOAuthClient(record.type, readCredentials(record)),
        http,
        signal: AbortSignal.timeout(15_000),
      })
      return {
        ok: result.ok,
        message:
          result.message ?? (result.ok ? 'The credentials work.' : 'The credentials were refused.'),
      }
    } catch (error) {
      return { ok: false, message: (error as Error).message }
    }
  }
}
