import KnowledgeSource from '#models/knowledge_source'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import type { PlanName } from '#shared/plans'

/** A user on the given plan (UNLIMITED: no vector limit in the way) with their workspace. */
export async function knowledgeOwner(plan: PlanName = 'UNLIMITED') {
  const user = await createUser()
  await setUserPlan(user, plan)
  return { user, workspace: await firstWorkspaceOf(user) }
}

/**
 * Waits until the queue has indexed a source (COMPLETED or FAILED), at the given revision when
 * one is named: a re-index starts from the previous revision's final state.
 */
export async function waitForSource(
  id: string,
  { revision, timeoutMs = 15_000 }: { revision?: number; timeoutMs?: number } = {}
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const source = await KnowledgeSource.findOrFail(id)
    const finished = source.status === 'COMPLETED' || source.status === 'FAILED'
    if (finished && (revision === undefined || source.revision === revision)) return source
    if (Date.now() > deadline) throw new Error(`source still ${source.status}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
