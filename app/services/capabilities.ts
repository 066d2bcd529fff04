import { DateTime } from 'luxon'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import db from '@adonisjs/lucid/services/db'
import AppError from '#exceptions/app_error'
import { getPlan, isExpired } from '#services/plans'
import { stampedCache, type CapabilityTurn } from '#services/capability_stamp'
import { UNLIMITED, type PlanDefinition, type PlanFeatures, type PlanLimits } from '#shared/plans'
import { track } from '#services/analytics/analytics'

/**
 * The one place that decides which plan (limits, features) applies: `planFor`. Every action,
 * page, the chat engine, the channels, widgets and the API ask it, and nothing else reads a
 * plan name to decide.
 *
 * The rule (docs/security.md, "One plan rule"): inside a workspace, the workspace's own plan
 * applies to whoever acts, its creator, a member, a visitor of its bots or a scheduled run
 * alike. That is what `/api/v1/workspaces` shows, what billing buys and what
 * `node ace workspace:plan` and /admin/workspaces change. Judging a creator by their own
 * account plan instead would make the same workspace answer two ways. A person's account plan answers only outside any workspace: how many
 * workspaces they may create.
 */

export interface EffectivePlan {
  plan: PlanDefinition
  expired: boolean
  /** Whose plan answered: the workspace's, or the person's account (no workspace). */
  judgedBy: 'user' | 'workspace'
}

interface PlanHolder {
  plan: string
  planEndsAt: DateTime | null
}

async function decide(holder: PlanHolder, judgedBy: EffectivePlan['judgedBy']) {
  return {
    plan: await getPlan(holder.plan),
    expired: isExpired(holder.planEndsAt),
    judgedBy,
  }
}

const workspacePlans = stampedCache<EffectivePlan>()

/**
 * The plan that applies to `actor` in `workspace`. With a loaded workspace the answer
 * comes from its row as loaded (callers inside a transaction must call this first: on
 * SQLite the transaction holds the only connection). With a workspace id (runtimes: a
 * visitor's turn, a webhook, a scheduled run) it is cached per process until the capability
 * stamp moves (capability_stamp.ts; a workspace's plan change moves it). Without a
 * workspace, the actor's account plan (creating a workspace).
 */
export async function planFor(
  actor: User | null,
  workspace: Workspace | string | null,
  /** A chat turn's checks share its one read of the capability stamp (capabilityTurn). */
  turn?: CapabilityTurn
): Promise<EffectivePlan> {
  if (workspace && typeof workspace === 'object') return decide(workspace, 'workspace')
  if (typeof workspace === 'string') {
    return workspacePlans(
      workspace,
      async () => {
        const row = await db
          .from('workspaces')
          .where('id', workspace)
          .select('plan', 'plan_ends_at')
          .first()
        const endsAt = row?.plan_ends_at ? toDateTime(row.plan_ends_at) : null
        return decide({ plan: row?.plan ?? 'FREE', planEndsAt: endsAt }, 'workspace')
      },
      turn
    )
  }
  if (!actor) return decide({ plan: 'FREE', planEndsAt: null }, 'user')
  return decide(actor, 'user')
}

function toDateTime(value: Date | string | number): DateTime {
  if (value instanceof Date) return DateTime.fromJSDate(value)
  if (typeof value === 'number') return DateTime.fromMillis(value)
  const iso = DateTime.fromISO(value)
  return iso.isValid ? iso : DateTime.fromSQL(value, { zone: 'utc' })
}

export function isBelowLimit(limit: number, current: number) {
  return limit === UNLIMITED || current < limit
}

type LimitKey = keyof PlanLimits

const LIMIT_MESSAGES: Partial<Record<LimitKey, { title: string; description: string }>> = {
  multipleWorkspace: {
    title: 'Workspace limit reached',
    description:
      'You have reached the maximum number of workspaces allowed in your plan. Please upgrade your plan to create more workspaces.',
  },
  multipleUser: {
    title: 'Member limit reached',
    description:
      'You have reached the maximum number of members allowed in your plan. Please upgrade your plan to invite more people.',
  },
  botCreation: {
    title: 'Bot limit reached',
    description:
      'You have reached the maximum number of bots allowed in your plan. Please upgrade your plan to create more bots.',
  },
  botPublish: {
    title: 'Publish limit reached',
    description:
      'You have reached the maximum number of published bots allowed in your plan. Please upgrade your plan to publish more bots.',
  },
  workflowCreation: {
    title: 'Workflow limit reached',
    description:
      'You have reached the maximum number of workflows allowed in your plan. Please upgrade your plan to create more workflows.',
  },
  workflowActivation: {
    title: 'Active workflow limit reached',
    description:
      'You have reached the maximum number of active workflows allowed in your plan. Please upgrade your plan to activate more workflows.',
  },
  vectorLimit: {
    title: 'Vector store limit reached',
    description:
      'You have reached the maximum number of vector stores allowed in your plan. Please upgrade your plan to create more.',
  },
}

const FEATURE_MESSAGES: Partial<Record<keyof PlanFeatures, string>> = {
  workspaceWithFolder:
    'Folders are not available on your plan. Please upgrade your plan to organise bots in folders.',
  // The editor's own words beside its locked switch (botSettings.general.brandingLocked).
  brandingRemoval: 'Your plan keeps the badge on.',
  userWiseFolderShare:
    'Sharing folders with people is not available on your plan. Please upgrade your plan.',
  fileUpload: 'The file upload block is not available on your plan. Please upgrade your plan.',
  customDomain: 'Custom domains are not available on your plan. Please upgrade your plan.',
  whatsApp: 'WhatsApp is not available on your plan. Please upgrade your plan.',
}

export const planExpiredError = () =>
  new AppError('Your plan has expired', {
    status: 403,
    code: 'E_PLAN_EXPIRED',
    description: 'Please upgrade your plan to create a new workspace.',
  })

/** The refusal builders see for a limit that is reached (the plan's name and the limit). */
export function planLimitError(key: LimitKey) {
  const msg = LIMIT_MESSAGES[key] ?? {
    title: 'Plan limit reached',
    description: 'Please upgrade your plan.',
  }
  return new AppError(msg.title, {
    status: 403,
    code: 'E_PLAN_LIMIT',
    description: msg.description,
  })
}

/**
 * Throws planLimitError's refusal when `current` is not below the plan's limit, for a plan
 * already looked up (inside a transaction that must not wait for another connection).
 */
export function checkLimit(
  { plan, expired }: Pick<EffectivePlan, 'plan' | 'expired'>,
  key: LimitKey,
  current: number,
  options: {
    requireActivePlan?: boolean
    /** Who met the limit, for the "Limit reached" analytics event. */
    who?: { userId?: string | null; workspaceId?: string | null }
  } = {}
) {
  if (options.requireActivePlan && expired) throw planExpiredError()
  if (!isBelowLimit(plan.limits[key], current)) {
    track({
      name: 'Limit reached',
      userId: options.who?.userId,
      workspaceId: options.who?.workspaceId,
      properties: { limit: key, plan: plan.name, value: plan.limits[key] },
    })
    throw planLimitError(key)
  }
}

/**
 * Throws planLimitError's refusal when `current` is not below the plan's limit.
 * `requireActivePlan` also refuses when the plan has expired. A count read before the
 * write it guards can be passed by concurrent requests: creations go through
 * withinPlanLimit (app/services/plan_limits.ts), which counts under a lock.
 */
export async function assertWithinLimit(
  user: User,
  workspace: Workspace | null,
  key: LimitKey,
  current: number,
  options: { requireActivePlan?: boolean } = {}
) {
  checkLimit(await planFor(user, workspace), key, current, {
    ...options,
    who: { userId: user.id, workspaceId: workspace?.id },
  })
}

export function featureError(feature: keyof PlanFeatures, field?: string) {
  return new AppError('Upgrade needed', {
    status: 403,
    code: 'E_PLAN_FEATURE',
    description: FEATURE_MESSAGES[feature] ?? 'This feature is not available on your plan.',
    field,
  })
}

export async function hasFeature(
  user: User,
  workspace: Workspace | null,
  feature: keyof PlanFeatures
) {
  const { plan } = await planFor(user, workspace)
  return !!plan.features[feature]
}

export async function assertFeature(
  user: User,
  workspace: Workspace | null,
  feature: keyof PlanFeatures
) {
  if (!(await hasFeature(user, workspace, feature))) throw featureError(feature)
}
