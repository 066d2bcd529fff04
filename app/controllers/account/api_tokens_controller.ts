import type { HttpContext } from '@adonisjs/core/http'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { RevokeApiToken } from '#actions/api_tokens/revoke_api_token'
import { createApiTokenValidator } from '#validators/api_token'

export default class ApiTokensController {
  /** The value is flashed once to the settings page; only its hash is kept. */
  async store({ auth, request, session, response }: HttpContext) {
    const { name } = await request.validateUsing(createApiTokenValidator)
    const token = await new CreateApiToken().handle(auth.user!, name)
    session.flash('createdToken', token)
    return response.redirect('/settings/account/keys')
  }

  async destroy({ auth, params, session, response }: HttpContext) {
    await new RevokeApiToken().handle(auth.user!, params.id)
    session.flash('toast', { type: 'success', title: 'API token revoked' })
    return response.redirect('/settings/account/keys')
  }
}
