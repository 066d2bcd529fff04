import type { HttpContext } from '@adonisjs/core/http'
import { CreateCredential } from '#actions/credentials/create_credential'
import { DeleteCredential } from '#actions/credentials/delete_credential'
import { findCredential } from '#actions/credentials/credentials'
import { listCredentials } from '#services/credentials'
import { findWorkspaceFor } from '#services/workspace_access'
import { toCredentialApiDto } from '#dtos/credential_dto'
import { apiCreateCredentialValidator } from '#validators/credential'

/** REST API for API tokens; answers never contain the credential data. */
export default class ApiCredentialsController {
  async store({ auth, request, response }: HttpContext) {
    const payload = await request.validateUsing(apiCreateCredentialValidator)
    const { workspace } = await findWorkspaceFor(auth.user!, payload.workspaceId)
    const record = await new CreateCredential().handle(auth.user!, workspace, {
      type: payload.type,
      name: payload.name,
      data: payload.data ?? {},
    })
    return response.created(toCredentialApiDto(record))
  }

  async index({ auth, params, response }: HttpContext) {
    const records = await listCredentials(auth.user!, params.id)
    return response.ok({ credentials: records.map(toCredentialApiDto) })
  }

  async destroy({ auth, params, response }: HttpContext) {
    const record = await findCredential(auth.user!, params.id)
    await new DeleteCredential().handle(auth.user!, record)
    return response.noContent()
  }
}
