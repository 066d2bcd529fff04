import type { ApiClient } from '@japa/api-client'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import WorkflowRun from '#models/workflow_run'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

export const at = { x: 0, y: 0 }

export async function owner() {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `ev-${Date.now()}-${Math.random()}`)).value
  return { user, workspace, token, workspaceId: workspace.id }
}

/** A trigger followed by a script that echoes what the next nodes read from the trigger. */
export function triggerWorkflow(type: string, options: Record<string, unknown>, code: string) {
  return {
    name: `${type} workflow`,
    blocks: [
      { id: 'trigger', type, graphCoordinates: at, options },
      {
        id: 'echo',
        type: 'workflow-script',
        graphCoordinates: { x: 300, y: 0 },
        options: { code },
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'echo' } }],
    variables: [],
    settings: {},
  }
}

export async function importAndPublish(
  client: ApiClient,
  who: Awaited<ReturnType<typeof owner>>,
  workflow: unknown
) {
  const created = await client
    .post('/api/v1/workflows')
    .bearerToken(who.token)
    .json({ workspaceId: who.workspaceId, workflow })
  created.assertStatus(201)
  const id = created.body().workflow.id as string
  ;(await client.post(`/api/v1/workflows/${id}/publish`).bearerToken(who.token)).assertStatus(200)
  return id
}

export async function finishedRuns(workflowId: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const runs = await WorkflowRun.query().where('workflowId', workflowId).orderBy('createdAt')
    if (runs.length >= count && runs.every((run) => ['success', 'error'].includes(run.status)))
      return runs
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`expected ${count} finished runs`)
}

export async function runCount(workflowId: string) {
  return (await WorkflowRun.query().where('workflowId', workflowId)).length
}
