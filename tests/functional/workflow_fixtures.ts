import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { newId } from '#services/ids'
import { loadWorkflow, type RunnableWorkflow } from '#services/workflows/runnable_workflow'
import type {
  WorkflowBlock,
  WorkflowEdge,
  WorkflowSettings,
  WorkflowVariable,
} from '#shared/workflow/types'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import type User from '#models/user'

/**
 * A workflow row as publishing leaves it (PUBLISHED, active, compiled), written directly so
 * that run tests depend on the runs code only. Nodes are chained in order unless `edges`.
 */

export type NodeSpec = {
  id: string
  type: string
  options?: Record<string, unknown>
  title?: string
  /** The branches of a condition node; an edge [from, to, conditionId] leaves one. */
  conditions?: WorkflowBlock['conditions']
  /** Where the editor draws it (browser tests place nodes apart to click them). */
  graphCoordinates?: { x: number; y: number }
}

export async function publishedWorkflow(
  nodes: NodeSpec[],
  extra: {
    settings?: WorkflowSettings
    variables?: WorkflowVariable[]
    name?: string
    edges?: ([string, string] | [string, string, string])[]
  } = {}
): Promise<RunnableWorkflow & { email: string; user: User }> {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const blocks: WorkflowBlock[] = nodes.map((node) => ({
    graphCoordinates: { x: 0, y: 0 },
    ...node,
  }))
  const pairs = extra.edges ?? nodes.slice(1).map((node, index) => [nodes[index].id, node.id])
  const edges: WorkflowEdge[] = pairs.map(([from, to, conditionId]) => ({
    id: `${from}-${to}`,
    from: conditionId ? { blockId: from, conditionId } : { blockId: from },
    to: { blockId: to },
  }))
  const id = newId()
  const now = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
  const settings = extra.settings ?? {}
  const variables = extra.variables ?? []
  await db.table('workflows').insert({
    id,
    workspace_id: workspace.id,
    created_by: user.id,
    name: extra.name ?? 'Orders',
    status: 'PUBLISHED',
    is_active: true,
    blocks: JSON.stringify(blocks),
    edges: JSON.stringify(edges),
    variables: JSON.stringify(variables),
    settings: JSON.stringify(settings),
    executable_workflow: JSON.stringify({
      blocks,
      edges,
      root_block: blocks[0].id,
      wait_blocks: blocks
        .filter((b) => ['workflow-wait', 'Wait'].includes(b.type))
        .map((b) => b.id),
    }),
    created_at: now,
    updated_at: now,
  })
  return { ...(await loadWorkflow(id))!, email: user.email, user }
}
