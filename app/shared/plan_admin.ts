import type { PlanName } from '#shared/plans'

/**
 * Shapes of the plan administration page (/admin/workspaces) and of the plan usage the
 * app's pages read to disable an action at its limit; shared by the server and the browser.
 */

/** The limits that count rows (app/services/plan_limits.ts). */
export const COUNTED_LIMITS = [
  'botCreation',
  'botPublish',
  'workflowCreation',
  'workflowActivation',
  'multipleUser',
  'multipleWorkspace',
] as const
export type CountedLimit = (typeof COUNTED_LIMITS)[number]

/** `limit` -1 is unlimited. */
export interface LimitUsage {
  used: number
  limit: number
}

export interface PlanUsageDto {
  plan: PlanName
  label: string
  /** The person's own plan has expired: no new workspace. */
  expired: boolean
  /** Always 'workspace' inside a workspace: its plan applies to everyone (planFor). */
  judgedBy: 'user' | 'workspace'
  usage: Record<CountedLimit, LimitUsage>
}

export type AuditAction = 'plan' | 'suspend' | 'unsuspend' | 'ai_credits' | 'reset_2fa'
export type AuditTargetType = 'workspace' | 'user'

export interface AdminWorkspaceRow {
  id: string
  name: string
  plan: PlanName
  planEndsAt: string | null
  isSuspended: boolean
  isPastDue: boolean
  owner: { id: string; email: string; plan: PlanName } | null
  /** Against the workspace's own plan. */
  usage: Record<Exclude<CountedLimit, 'multipleWorkspace'>, LimitUsage>
  createdAt: string
}

export interface AdminUserRow {
  id: string
  email: string
  name: string | null
  plan: PlanName
  planEndsAt: string | null
  aiCredits: string
  /** Two-factor sign-in is on (an admin may reset it). */
  twoFactorEnabled: boolean
  /** Workspaces they created, against their account plan (the one limit it decides). */
  workspaces: LimitUsage
  createdAt: string
}

export interface AuditEntryDto {
  id: number
  actorLabel: string
  action: AuditAction
  targetType: AuditTargetType
  targetLabel: string
  details: Record<string, unknown>
  createdAt: string
}
