import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import AppError from '#exceptions/app_error'

export class CreateApiToken {
  /** Returns the token value, shown once; only its hash is stored. Names are unique per user. */
  async handle(user: User, name: string) {
    const taken = await db
      .from('auth_access_tokens')
      .where('tokenable_id', user.id)
      .where('name', name)
      .first()
    if (taken) {
      throw new AppError('Name already used', {
        status: 409,
        code: 'E_TOKEN_NAME_TAKEN',
        description: 'An API token with this name already exists. Choose another name.',
        field: 'name',
      })
    }
    const token = await User.accessTokens.create(user, ['*'], { name })
    return { id: String(token.identifier), name, value: token.value!.release() }
  }
}
