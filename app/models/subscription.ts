import { DateTime } from 'luxon'
import { belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import BaseModelWithId from '#models/base_model_with_id'
import Workspace from '#models/workspace'
import type { PlanName } from '#shared/plans'
import type { BillingPeriod } from '#shared/billing'

/** A workspace's Stripe subscription as the webhooks last described it (docs/billing.md). */
export default class Subscription extends BaseModelWithId {
  @column({ isPrimary: true })
  declare id: string

  @column()
  declare workspaceId: string

  @column()
  declare stripeSubscriptionId: string

  @column()
  declare stripeCustomerId: string

  @column()
  declare plan: PlanName

  @column()
  declare period: BillingPeriod

  @column()
  declare status: string

  @column.dateTime()
  declare currentPeriodEnd: DateTime | null

  @column.dateTime()
  declare cancelAt: DateTime | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  @belongsTo(() => Workspace)
  declare workspace: BelongsTo<typeof Workspace>
}
