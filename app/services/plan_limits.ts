import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import User from '#models/user'
import Workspace from '#models/workspace'
import { checkLimit, planFor } from '#services/capabilities'
import { COUNTED_LIMITS, type CountedLimit, type PlanUsageDto } from '#shared/plan_admin'

/**
 * The plan limits that count rows, enforced on every path that adds to a count: create,
 * import, duplicate and template use (all through CreateBot / CreateWorkflow), unarchive,
 * publish, activate, invite, new workspace, from the UI and the API alike
 * (docs/security.md, "Plan limits").
 *
 * A count read before the insert it guards lets concurrent requests through together: two
 * creates both read 0 on a 1-bot plan, and both insert. So the count and the write run in
 * one transaction that first locks the row the count belongs to (the workspace, or the
 * user for their workspaces): a second request waits at the lock and counts after the
 * first one committed. On SQLite the lock is a write to that row, which takes the
 * database's write lock before anything is read, so a second process waits too.
 */

export type { CountedLimit }

type Trx = TransactionClientContract
type Client = QueryClientContract | TransactionClientContract

async function total(query: Promise<any[]>) {
  const rows = await query
  return Number(rows[0]?.total ?? 0)
}

/** What counts against each limit; `scopeId` is the workspace (the user for workspaces). */
const COUNTERS: Record<CountedLimit, (trx: Client, scopeId: string) => Promise<number>> = {
  botCreation: (trx, workspaceId) =>
    total(
      trx
        .from('bots')
        .where('workspace_id', workspaceId)
        .where('is_archived', false)
        .count('* as total')
    ),
  botPublish: (trx, workspaceId) =>
    total(
      trx
        .from('published_bots')
        .join('bots', 'bots.id', 'published_bots.bot_id')
        .where('bots.workspace_id', workspaceId)
        .count('* as total')
    ),
  workflowCreation: (trx, workspaceId) =>
    total(
      trx
        .from('workflows')
        .where('workspace_id', workspaceId)
        .where('is_archived', false)
        .count('* as total')
    ),
  workflowActivation: (trx, workspaceId) =>
    total(
      trx
        .from('workflows')
        .where('workspace_id', workspaceId)
        .where('is_active', true)
        .count('* as total')
    ),
  multipleUser: async (trx, workspaceId) =>
    (await total(
      trx.from('workspace_members').where('workspace_id', workspaceId).count('* as total')
    )) +
    (await total(
      trx.from('workspace_invitations').where('workspace_id', workspaceId).count('* as total')
    )),
  multipleWorkspace: (trx, userId) =>
    total(trx.from('workspaces').where('created_by', userId).count('* as total')),
}

/** Holds `table`'s row `id` until the transaction ends. */
export async function lockRow(trx: Trx, table: 'workspaces' | 'users', id: string) {
  const dialect = trx.dialect.name
  if (dialect === 'postgres' || dialect === 'mysql') {
    await trx.from(table).where('id', id).forUpdate().select('id')
    return
  }
  // SQLite has no row locks: a write takes the database's (waiting on busy_timeout).
  await trx.rawQuery('update ?? set updated_at = updated_at where id = ?', [table, id])
}

export interface LimitActor {
  user: User
  workspace: Workspace | null
}

/**
 * Runs `write` in a transaction after checking, under the lock, that the count of `key`
 * is below the limit of the plan that applies (planFor); throws planLimitError's refusal otherwise. `write` must use
 * `trx` for every query: on SQLite the transaction holds the only connection.
 */
export async function withinPlanLimit<T>(
  actor: LimitActor,
  key: CountedLimit,
  write: (trx: Trx) => Promise<T>,
  options: { requireActivePlan?: boolean } = {}
): Promise<T> {
  // The plan is read first, outside the transaction, for the same reason.
  const plan = await planFor(actor.user, actor.workspace)
  const scope =
    key === 'multipleWorkspace'
      ? { table: 'users' as const, id: actor.user.id }
      : { table: 'workspaces' as const, id: actor.workspace!.id }
  return db.transaction(async (trx) => {
    await lockRow(trx, scope.table, scope.id)
    checkLimit(plan, key, await COUNTERS[key](trx, scope.id), {
      ...options,
      who: { userId: actor.user.id, workspaceId: actor.workspace?.id },
    })
    return write(trx)
  })
}

/** Who a change is judged as when no person made it: the workspace's creator. */
export async function workspaceOwner(workspaceId: string): Promise<LimitActor> {
  const workspace = await Workspace.findOrFail(workspaceId)
  const user = workspace.createdBy ? await User.find(workspace.createdBy) : null
  if (!user) throw new Error(`workspace ${workspaceId} has no creator to judge its plan by`)
  return { user, workspace }
}

/** What counts against `key` now (outside any lock: for display, never to guard a write). */
export function countUsage(key: CountedLimit, scopeId: string, client: Client = db.connection()) {
  return COUNTERS[key](client, scopeId)
}

/**
 * The counted limits of `user` in `workspace` with what already counts against them, for
 * the pages that disable an action at its limit before a form is filled in
 * (docs/security.md, "Plan limits"). The write itself is still checked under the lock.
 */
export async function planUsage(user: User, workspace: Workspace): Promise<PlanUsageDto> {
  const { plan, judgedBy } = await planFor(user, workspace)
  // Outside any workspace the account's plan answers: how many workspaces the person may
  // create (CreateWorkspace).
  const own = await planFor(user, null)
  const entries = await Promise.all(
    COUNTED_LIMITS.map(async (key) => {
      const ownCount = key === 'multipleWorkspace'
      const limit = (ownCount ? own.plan : plan).limits[key]
      return [
        key,
        { used: await countUsage(key, ownCount ? user.id : workspace.id), limit },
      ] as const
    })
  )
  return {
    plan: plan.name,
    label: plan.label,
    expired: own.expired,
    judgedBy,
    usage: Object.fromEntries(entries) as PlanUsageDto['usage'],
  }
}
