import type User from '#models/user'
import { isAdminEmail } from '#services/admins'
import { remainingDays } from '#services/plans'
import type { UserDto } from '#shared/types'

export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    graphNavigation: user.graphNavigation,
    preferredAppAppearance: user.preferredAppAppearance,
    preferredLanguage: user.preferredLanguage,
    plan: user.plan,
    planEndsAt: user.planEndsAt?.toISO() ?? null,
    remainingDays: remainingDays(user.planEndsAt),
    isAdmin: isAdminEmail(user.email),
    twoFactorEnabled: !!user.twoFactorEnabledAt,
    tourStatus: (user.tourStatus ?? {}) as Record<string, boolean>,
    onboardingChecklistDismissed: !!user.onboardingChecklistDismissedAt,
    createdAt: user.createdAt.toISO()!,
  }
}
