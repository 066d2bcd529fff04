import type User from '#models/user'
import type Workspace from '#models/workspace'
import { planFor } from '#services/capabilities'
import { assertPluginsEnabled } from '#services/marketplace'
import { nodeTypesOf } from '#shared/workflow/validate'
import type { ExecutableWorkflow } from '#shared/workflow/types'

/** Every node that would run must be enabled on the actor's plan. */
export async function assertRunnableOnPlan(
  user: User,
  workspace: Workspace,
  executable: ExecutableWorkflow
) {
  const { plan } = await planFor(user, workspace)
  await assertPluginsEnabled(nodeTypesOf(executable, { enabledOnly: true }), plan.name)
}
