import type { HttpContext } from '@adonisjs/core/http'
import { CreateCredential } from '#actions/credentials/create_credential'
import { DeleteCredential } from '#actions/credentials/delete_credential'
import { TestCredential } from '#actions/credentials/test_credential'
import { UpdateCredential } from '#actions/credentials/update_credential'
import { findCredential } from '#actions/credentials/credentials'
import { listCredentials, readCredentials } from '#services/credentials'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { credentialsModuleOf, pluginRegistry } from '#services/plugin_registry'
import { toCredentialDto, toCredentialTypeDto } from '#dtos/credential_dto'
import { createCredentialValidator, updateCredentialValidator } from '#validators/credential'
import type User from '#models/user'

/** Props of the Credentials tab of the settings modal. */
export async function credentialsTabProps(user: User, workspaceId: string) {
  const registry = await pluginRegistry()
  const records = await listCredentials(user, workspaceId)
  const types = []
  for (const plugin of registry.all().filter((p) => p.credentials)) {
    types.push(toCredentialTypeDto(plugin, !!(await credentialsModuleOf(plugin))?.test))
  }
  return {
    credentials: records.map((r) => {
      let data: Record<string, unknown> | null = null
      try {
        data = readCredentials(r)
      } catch {
        // Encrypted with another ENCRYPTION_SECRET: listed, shown as unreadable.
      }
      return { ...toCredentialDto(r, registry.get(r.type), data), readable: data !== null }
    }),
    credentialTypes: types,
  }
}

export default class CredentialsController {
  async store(ctx: HttpContext) {
    const payload = await ctx.request.validateUsing(createCredentialValidator)
    const current = (await resolveCurrentWorkspace(ctx, ctx.auth.user!))!
    const record = await new CreateCredential().handle(ctx.auth.user!, current.workspace, {
      type: payload.type,
      name: payload.name,
      data: payload.data ?? {},
    })
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Credentials saved',
      description: record.name,
    })
    return ctx.response.redirect('/settings/account/credentials')
  }

  async update(ctx: HttpContext) {
    const record = await findCredential(ctx.auth.user!, ctx.params.id)
    const payload = await ctx.request.validateUsing(updateCredentialValidator)
    await new UpdateCredential().handle(ctx.auth.user!, record, payload)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Credentials saved',
      description: record.name,
    })
    return ctx.response.redirect('/settings/account/credentials')
  }

  async destroy(ctx: HttpContext) {
    const record = await findCredential(ctx.auth.user!, ctx.params.id)
    await new DeleteCredential().handle(ctx.auth.user!, record)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Credentials deleted',
      description: record.name,
    })
    return ctx.response.redirect('/settings/account/credentials')
  }

  /** JSON: { ok, message } from the plugin's own check. */
  async test(ctx: HttpContext) {
    const record = await findCredential(ctx.auth.user!, ctx.params.id)
    return ctx.response.ok(await new TestCredential().handle(ctx.auth.user!, record))
  }
}
