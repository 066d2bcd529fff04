import { DateTime } from 'luxon'
import env from '#start/env'
import { missingBillingSettings } from '#services/billing/stripe'
import Plan from '#models/plan'
import { DEFAULT_PLANS, parseDuration, type PlanDefinition, type PlanName } from '#shared/plans'

/**
 * Plans as stored (admins may edit the rows); the seeded defaults answer for a plan
 * that is missing from the table, and FREE answers for an unknown name.
 */
export async function getPlan(name: PlanName | string): Promise<PlanDefinition> {
  const row = await Plan.find(name)
  if (row) {
    return {
      name: row.name,
      label: row.label,
      priceMonthly: row.priceMonthly,
      duration: row.duration,
      limits: row.limits,
      features: row.features,
    }
  }
  return DEFAULT_PLANS.find((p) => p.name === name) ?? DEFAULT_PLANS[0]
}

export async function listPlans(): Promise<PlanDefinition[]> {
  const rows = await Plan.query().orderBy('sort_order', 'asc')
  if (rows.length === 0) return DEFAULT_PLANS
  return rows.map((row) => ({
    name: row.name,
    label: row.label,
    priceMonthly: row.priceMonthly,
    duration: row.duration,
    limits: row.limits,
    features: row.features,
  }))
}

/**
 * Billing is on once Stripe is configured: secret key, webhook secret and at least one
 * price (app/services/billing/stripe.ts, docs/billing.md).
 */
export function billingEnabled(): boolean {
  return missingBillingSettings().length === 0
}

/**
 * The plan of new accounts and workspaces: DEFAULT_WORKSPACE_PLAN when set, else FREE (the
 * plan nobody has paid for) when billing is on, else UNLIMITED: with nobody to pay, a self-hosted
 * install must not stop its own admin at one bot (docs/architecture.md, "Plans").
 */
export function defaultPlanName(): PlanName {
  return env.get('DEFAULT_WORKSPACE_PLAN') ?? (billingEnabled() ? 'FREE' : 'UNLIMITED')
}

/**
 * The latest end date stored: MySQL/MariaDB TIMESTAMP columns stop at 2038-01-19, so
 * UNLIMITED's '100 years' would fail every insert there. Past it a plan is as good as
 * endless anyway.
 */
export const LATEST_PLAN_END = DateTime.fromISO('2037-12-31T23:59:59Z', { zone: 'utc' })

export function clampPlanEnd(endsAt: DateTime): DateTime {
  return endsAt > LATEST_PLAN_END ? LATEST_PLAN_END : endsAt
}

/** End date of a plan that starts now. */
export function planEndDate(plan: PlanDefinition, from: DateTime = DateTime.now()): DateTime {
  return clampPlanEnd(from.plus(parseDuration(plan.duration)))
}

/** Remaining plan days: the ceiling of the days to the end date, at least 0. */
export function remainingDays(
  endsAt: DateTime | null,
  now: DateTime = DateTime.now()
): number | null {
  if (!endsAt) return null
  const days = endsAt.diff(now, 'days').days
  return Math.max(0, Math.ceil(days))
}

export function isExpired(endsAt: DateTime | null, now: DateTime = DateTime.now()): boolean {
  return !!endsAt && endsAt <= now
}

/** Upserts the default plans; run by the seeder at every start. Keeps admins' edits. */
export async function seedPlans() {
  let order = 0
  for (const plan of DEFAULT_PLANS) {
    const existing = await Plan.find(plan.name)
    if (!existing) {
      await Plan.create({
        name: plan.name,
        label: plan.label,
        priceMonthly: plan.priceMonthly,
        duration: plan.duration,
        limits: plan.limits,
        features: plan.features,
        sortOrder: order,
      })
    } else {
      // New limit or feature keys added in a release get their default value.
      existing.limits = { ...plan.limits, ...existing.limits }
      existing.features = { ...plan.features, ...existing.features }
      existing.sortOrder = order
      await existing.save()
    }
    order++
  }
}
