import db from '@adonisjs/lucid/services/db'
import { planFor } from '#services/capabilities'
import { UNLIMITED } from '#shared/plans'
import { changedRows, usagePeriod } from '#services/monthly_usage'

/**
 * The plan's monthly AI calls (`aiCalls`), per workspace. A call is one request to a model
 * made by a bot's block or a workflow's node (their runner context). The copilot is held by
 * its own limit (`userCopilotLimit`) and the embeddings of knowledge stores by theirs
 * (`vectorLimit`), so neither counts here.
 *
 * A call takes its place before it is made, in one conditional statement
 * (`... where calls < limit`), so parallel calls, in any number of processes, never pass
 * the limit; a refused call is never made. A place taken by a call that then fails is not
 * given back: the request reached the provider, or was about to.
 */

export class AiCallLimitExceededError extends Error {
  constructor(limit: number) {
    super(`This workspace has used its ${limit} AI calls of the month`)
    this.name = 'AiCallLimitExceededError'
  }
}

/** Takes one of the workspace's AI calls of the month, or throws when none is left. */
export async function takeAiCall(workspaceId: string, now = new Date()): Promise<void> {
  const { plan } = await planFor(null, workspaceId)
  const limit = plan.limits.aiCalls
  const month = usagePeriod(now)
  const take = async () =>
    changedRows(
      await db
        .knexQuery()
        .table('ai_call_usage')
        .where({ workspace_id: workspaceId, period: month })
        .modify((query) => {
          if (limit !== UNLIMITED) query.where('calls', '<', limit)
        })
        .increment('calls', 1)
    ) > 0
  if (await take()) return
  // No row for this month yet, or the limit is reached.
  await db
    .knexQuery()
    .table('ai_call_usage')
    .insert({ workspace_id: workspaceId, period: month, calls: 0 })
    .onConflict(['workspace_id', 'period'])
    .ignore()
  if (!(await take())) throw new AiCallLimitExceededError(limit)
}

/** AI calls counted this month in a workspace. */
export async function aiCallsThisMonth(workspaceId: string, now = new Date()): Promise<number> {
  const row = await db
    .from('ai_call_usage')
    .where({ workspace_id: workspaceId, period: usagePeriod(now) })
    .select('calls')
    .first()
  return Number(row?.calls ?? 0)
}
