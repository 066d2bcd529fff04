import User from '#models/user'
import type { ApiTokenDto } from '#shared/types'

export async function listApiTokens(user: User): Promise<ApiTokenDto[]> {
  const tokens = await User.accessTokens.all(user)
  return tokens.map((t) => ({
    id: String(t.identifier),
    name: t.name ?? '',
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  }))
}
