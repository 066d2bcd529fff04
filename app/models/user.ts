import { DateTime } from 'luxon'
import { column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import { DbAccessTokensProvider } from '@adonisjs/auth/access_tokens'
import BaseModelWithId from '#models/base_model_with_id'
import WorkspaceMember from '#models/workspace_member'
import { jsonColumn } from '#models/plan'
import type { Appearance, GraphNavigation, Language } from '#shared/workspace_roles'
import type { PlanName } from '#shared/plans'

export interface TourStatus {
  dashboardTourCompleted?: boolean
  botTourCompleted?: boolean
  workflowTourCompleted?: boolean
  vectorTourCompleted?: boolean
}

export default class User extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare email: string

  @column()
  declare name: string | null

  @column()
  declare image: string | null

  @column()
  declare company: string | null

  @column()
  declare graphNavigation: GraphNavigation

  @column()
  declare preferredAppAppearance: Appearance

  @column()
  declare preferredLanguage: Language

  @column(jsonColumn)
  declare onboardingCategories: string[] | null

  @column(jsonColumn)
  declare displayedInAppNotifications: Record<string, boolean> | null

  @column(jsonColumn)
  declare tourStatus: TourStatus | null

  @column()
  declare plan: PlanName

  /** AI credits left; PostgreSQL returns decimals as strings. */
  @column({ consume: (value: unknown) => Number(value) })
  declare aiCredits: number

  @column.dateTime()
  declare planEndsAt: DateTime | null

  @column.dateTime()
  declare emailVerifiedAt: DateTime | null

  @column.dateTime()
  declare lastSignedInAt: DateTime | null

  /** Encrypted TOTP secret (docs/security.md, "Two-factor sign-in"); never serialised. */
  @column({ serializeAs: null })
  declare twoFactorSecret: string | null

  /** When the second factor was confirmed; null: off (or a setup not yet confirmed). */
  @column.dateTime()
  declare twoFactorEnabledAt: DateTime | null

  /** The last TOTP time step accepted: a code is not accepted twice. */
  @column({ serializeAs: null, consume: (v: unknown) => (v === null ? null : Number(v)) })
  declare twoFactorLastStep: number | null

  /** The onboarding checklist was closed for good (docs/onboarding.md). */
  @column.dateTime()
  declare onboardingChecklistDismissedAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @hasMany(() => WorkspaceMember)
  declare memberships: HasMany<typeof WorkspaceMember>

  static accessTokens = DbAccessTokensProvider.forModel(User, {
    prefix: 'fc_',
    table: 'auth_access_tokens',
    type: 'api_token',
    tokenSecretLength: 40,
  })
}
