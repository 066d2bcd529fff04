import User from '#models/user'
import AppError from '#exceptions/app_error'

export class RevokeApiToken {
  async handle(user: User, tokenId: string) {
    const deleted = await User.accessTokens.delete(user, tokenId)
    if (!deleted) throw AppError.notFound('API token not found')
  }
}
