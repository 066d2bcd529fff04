import type User from '#models/user'
import type Workspace from '#models/workspace'
import db from '@adonisjs/lucid/services/db'
import AppError from '#exceptions/app_error'
import { getPlan, isExpired } from '#services/plans'
import { stampedCache, type CapabilityTurn } from '#services/capability_stamp'
import { UNLIMITED, type PlanDefinition, type PlanFeatures, type PlanLimits } from '#shared/plans'

/**
 * The one place that answers "may this person do this here?" from the plans
 * (docs/spec/01-app.md section 5). A workspace's creator is judged by their own plan, every
 * other member by the workspace's plan.
 */

export interface EffectivePlan {
  plan: PlanDefinition
  expired: boolean
  judgedBy: 'user' | 'workspace'
}

export async function effectivePlan(
  user: User,
  workspace?: Workspace | null
): Promise<EffectivePlan> {
  if (!workspace || workspace.createdBy === user.id) {
    return { plan: await getPlan(user.plan), expired: isExpired(user.planEndsAt), judgedBy: 'user' }
  }
  return {
    plan: await getPlan(workspace.plan),
    expired: isExpired(workspace.planEndsAt),
    judgedBy: 'workspace',
  }
}

const runtimePlans = stampedCache<PlanDefinition>()

/**
 * The plan that judges what a workspace's bots and workflows may run when no member is
 * acting (a visitor's turn, a scheduled run): its creator's (docs/spec/01-app.md
 * section 5). Cached per process until a capability change (capability_stamp.ts).
 */
export function runtimePlanOf(workspaceId: string, turn?: CapabilityTurn): Promise<PlanDefinition> {
  return runtimePlans(
    workspaceId,
    async () => {
      const row = await db
        .from('workspaces')
        .leftJoin('users', 'users.id', 'workspaces.created_by')
        .where('workspaces.id', workspaceId)
        .select('users.plan as plan')
        .first()
      return getPlan(row?.plan ?? 'FREE')
    },
    turn
  )
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

/** The spec's refusal for a limit that is reached. */
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
 * Throws the spec's message when `current` is not below the plan's limit, for a plan
 * already looked up (inside a transaction that must not wait for another connection).
 */
export function checkLimit(
  { plan, expired }: Pick<EffectivePlan, 'plan' | 'expired'>,
  key: LimitKey,
  current: number,
  options: { requireActivePlan?: boolean } = {}
) {
  if (options.requireActivePlan && expired) throw planExpiredError()
  if (!isBelowLimit(plan.limits[key], current)) throw planLimitError(key)
}

/**
 * Throws the spec's message when `current` is not below the plan's limit.
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
  checkLimit(await effectivePlan(user, workspace), key, current, options)
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
  const { plan } = await effectivePlan(user, workspace)
  return !!plan.features[feature]
}

export async function assertFeature(
  user: User,
  workspace: Workspace | null,
  feature: keyof PlanFeatures
) {
  if (!(await hasFeature(user, workspace, feature))) throw featureError(feature)
}
