import db from '@adonisjs/lucid/services/db'
import AdminAuditLog from '#models/admin_audit_log'
import User from '#models/user'
import Workspace from '#models/workspace'
import { creditsText } from '#services/ai/credits'
import { planFor } from '#services/capabilities'
import type { AdminUserRow, AdminWorkspaceRow, AuditEntryDto, LimitUsage } from '#shared/plan_admin'
import type { PlanDefinition } from '#shared/plans'

/** Rows of /admin/workspaces: at most this many workspaces and as many accounts per search. */
const PAGE = 50

const like = (q: string) => `%${q.toLowerCase()}%`

/** Counts per workspace id in one grouped query (not one query per row). */
async function countsBy(
  table: string,
  ids: string[],
  scope: (query: any) => any = (query) => query
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map()
  const rows = await scope(db.from(table).whereIn(`${table}.workspace_id`, ids))
    .groupBy(`${table}.workspace_id`)
    .select(`${table}.workspace_id as scope`)
    .count('* as total')
  return new Map(rows.map((row: any) => [row.scope, Number(row.total)]))
}

/** What applies to each row, as planFor decides it (the listing shows what is enforced). */
async function plansOf<T extends { id: string }>(
  rows: T[],
  decide: (row: T) => ReturnType<typeof planFor>
) {
  const plans = new Map<string, PlanDefinition>()
  for (const row of rows) plans.set(row.id, (await decide(row)).plan)
  return plans
}

export async function searchWorkspaces(q?: string): Promise<AdminWorkspaceRow[]> {
  const query = Workspace.query().preload('creator').orderBy('created_at', 'desc').limit(PAGE)
  if (q) {
    query.where((w) =>
      w
        .where('id', q)
        .orWhereRaw('lower(name) like ?', [like(q)])
        .orWhereHas('creator', (u) => u.whereRaw('lower(email) like ?', [like(q)]))
    )
  }
  const workspaces = await query
  const ids = workspaces.map((w) => w.id)
  const [bots, published, workflows, active, members, invitations] = await Promise.all([
    countsBy('bots', ids, (qb) => qb.where('is_archived', false)),
    countsBy('bots', ids, (qb) => qb.join('published_bots', 'published_bots.bot_id', 'bots.id')),
    countsBy('workflows', ids, (qb) => qb.where('is_archived', false)),
    countsBy('workflows', ids, (qb) => qb.where('is_active', true)),
    countsBy('workspace_members', ids),
    countsBy('workspace_invitations', ids),
  ])
  const plans = await plansOf(workspaces, (w) => planFor(null, w))
  return workspaces.map((w) => {
    const limits = plans.get(w.id)!.limits
    const of = (used: number, limit: number): LimitUsage => ({ used, limit })
    return {
      id: w.id,
      name: w.name,
      plan: w.plan,
      planEndsAt: w.planEndsAt?.toISO() ?? null,
      isSuspended: !!w.isSuspended,
      isPastDue: !!w.isPastDue,
      owner: w.creator ? { id: w.creator.id, email: w.creator.email, plan: w.creator.plan } : null,
      usage: {
        botCreation: of(bots.get(w.id) ?? 0, limits.botCreation),
        botPublish: of(published.get(w.id) ?? 0, limits.botPublish),
        workflowCreation: of(workflows.get(w.id) ?? 0, limits.workflowCreation),
        workflowActivation: of(active.get(w.id) ?? 0, limits.workflowActivation),
        multipleUser: of(
          (members.get(w.id) ?? 0) + (invitations.get(w.id) ?? 0),
          limits.multipleUser
        ),
      },
      createdAt: w.createdAt.toISO()!,
    }
  })
}

export async function searchUsers(q?: string): Promise<AdminUserRow[]> {
  const query = User.query().orderBy('created_at', 'desc').limit(PAGE)
  if (q) {
    query.where((u) =>
      u
        .where('id', q)
        .orWhereRaw('lower(email) like ?', [like(q)])
        .orWhereRaw('lower(name) like ?', [like(q)])
    )
  }
  const users = await query
  const ids = users.map((u) => u.id)
  const created = new Map<string, number>()
  if (ids.length) {
    const rows = await db
      .from('workspaces')
      .whereIn('created_by', ids)
      .groupBy('created_by')
      .select('created_by as scope')
      .count('* as total')
    for (const row of rows) created.set(row.scope, Number(row.total))
  }
  const plans = await plansOf(users, (u) => planFor(u, null))
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    plan: u.plan,
    planEndsAt: u.planEndsAt?.toISO() ?? null,
    aiCredits: creditsText(u.aiCredits),
    twoFactorEnabled: !!u.twoFactorEnabledAt,
    workspaces: {
      used: created.get(u.id) ?? 0,
      limit: plans.get(u.id)!.limits.multipleWorkspace,
    },
    createdAt: u.createdAt.toISO()!,
  }))
}

export async function recentAudit(limit = 30): Promise<AuditEntryDto[]> {
  const rows = await AdminAuditLog.query().orderBy('id', 'desc').limit(limit)
  return rows.map((row) => ({
    id: row.id,
    actorLabel: row.actorLabel,
    action: row.action,
    targetType: row.targetType,
    targetLabel: row.targetLabel,
    details: row.details,
    createdAt: row.createdAt.toISO()!,
  }))
}
