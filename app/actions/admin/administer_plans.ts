import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AdminAuditLog from '#models/admin_audit_log'
import User from '#models/user'
import Workspace from '#models/workspace'
import { grantAiCredits } from '#services/ai/credits'
import { clampPlanEnd, getPlan, planEndDate } from '#services/plans'
import type { AuditAction, AuditTargetType } from '#shared/plan_admin'
import type { PlanName } from '#shared/plans'
import { track } from '#services/analytics/analytics'

/**
 * What instance admins change on accounts and workspaces, from /admin/workspaces and from
 * `node ace workspace:plan` alike; each change leaves an audit row naming who made it
 * (docs/architecture.md, "Plans without billing"). Authorisation is the caller's: the
 * controller's Bouncer ability, or shell access for the command.
 */

/** Who makes the change: an admin (id and e-mail) or the command line (no id, 'cli'). */
export interface AdminActor {
  id: string | null
  label: string
}

export const CLI_ACTOR: AdminActor = { id: null, label: 'cli' }

export interface PlanInput {
  plan: PlanName
  /** Null or absent: the plan's own duration from now. */
  endsAt?: DateTime | null
}

type Target = { type: 'workspace'; model: Workspace } | { type: 'user'; model: User }

export async function audit(
  trx: TransactionClientContract | null,
  actor: AdminActor,
  action: AuditAction,
  target: { type: AuditTargetType; id: string; label: string },
  details: Record<string, unknown>
) {
  await AdminAuditLog.create(
    {
      actorId: actor.id,
      actorLabel: actor.label,
      action,
      targetType: target.type,
      targetId: target.id,
      targetLabel: target.label,
      details,
    },
    trx ? { client: trx } : undefined
  )
}

function describe(target: Target) {
  return target.type === 'workspace'
    ? { type: target.type, id: target.model.id, label: target.model.name }
    : { type: target.type, id: target.model.id, label: target.model.email }
}

/**
 * Sets the plan and its end date of a workspace (what applies to everyone in it: planFor), or
 * of an account: the account's plan decides how many workspaces the person may create, and
 * every workspace they created gets the same plan, so that what an admin sets for a person
 * is what that person's workspaces enforce. Each change is audited; `workspaces` lists the
 * workspaces whose plan was set.
 */
export async function setPlan(actor: AdminActor, target: Target, input: PlanInput) {
  const plan = await getPlan(input.plan)
  const endsAt = input.endsAt ? clampPlanEnd(input.endsAt) : planEndDate(plan)
  const model = target.model
  const workspaces: Workspace[] = []
  await db.transaction(async (trx) => {
    const models: Target[] = [target]
    if (target.type === 'user') {
      const created = await Workspace.query({ client: trx })
        .where('created_by', target.model.id)
        .orderBy('created_at', 'asc')
      models.push(...created.map((workspace) => ({ type: 'workspace' as const, model: workspace })))
    }
    for (const each of models) {
      const before = { plan: each.model.plan, endsAt: each.model.planEndsAt?.toISO() ?? null }
      each.model.useTransaction(trx)
      each.model.plan = plan.name
      each.model.planEndsAt = endsAt
      await each.model.save()
      if (each.type === 'workspace') workspaces.push(each.model)
      await audit(trx, actor, 'plan', describe(each), {
        before,
        after: { plan: plan.name, endsAt: endsAt.toISO() },
      })
    }
  })
  return { model, workspaces }
}

/** Suspends a workspace (its members land on /suspended) or lifts the suspension. */
export async function setSuspended(actor: AdminActor, workspace: Workspace, suspended: boolean) {
  if (!!workspace.isSuspended === suspended) return workspace
  await db.transaction(async (trx) => {
    workspace.useTransaction(trx)
    workspace.isSuspended = suspended
    await workspace.save()
    await audit(
      trx,
      actor,
      suspended ? 'suspend' : 'unsuspend',
      describe({ type: 'workspace', model: workspace }),
      {}
    )
  })
  if (suspended) {
    track({ name: 'Workspace quarantined', userId: actor.id, workspaceId: workspace.id })
  }
  return workspace
}

/** Adds (or, negative, takes back) AI credits; returns the new balance. */
export async function grantCredits(actor: AdminActor, user: User, amount: number | string) {
  const balance = await grantAiCredits(user.id, amount)
  await audit(null, actor, 'ai_credits', describe({ type: 'user', model: user }), {
    amount: String(amount),
    balance,
  })
  return balance
}

/**
 * The workspace with this id, else the account with this e-mail (the command's one
 * argument names either).
 */
export async function findTarget(ref: string): Promise<Target | null> {
  const workspace = await Workspace.find(ref.trim())
  if (workspace) return { type: 'workspace', model: workspace }
  const user = await User.query().whereRaw('lower(email) = ?', [ref.trim().toLowerCase()]).first()
  return user ? { type: 'user', model: user } : null
}
