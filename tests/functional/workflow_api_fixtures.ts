import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'

export async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
}

/** A manual trigger followed by a "set variable" node, as an export would carry it. */
export function workflowFile(id = `wf${Date.now()}${Math.floor(Math.random() * 1000)}`) {
  return {
    id,
    name: 'Order follow-up',
    description: 'Thanks customers',
    icon: '📦',
    version: 1,
    status: 'PUBLISHED',
    isActive: true,
    blocks: [
      {
        id: 'trigger',
        type: 'manual-trigger',
        graphCoordinates: { x: 0, y: 0 },
        outgoingEdgeId: 'e1',
      },
      {
        id: 'remember',
        type: 'workflow-set-variable',
        graphCoordinates: { x: 300, y: 0 },
        options: { variableId: 'v1', value: '{{$input.order}}' },
      },
    ],
    edges: [{ id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'remember' } }],
    variables: [{ id: 'v1', name: 'Order' }],
    settings: { timeout: 120, logging: { level: 'debug', retentionDays: 7 } },
    executableWorkflow: { blocks: [], edges: [], root_block: 'x', wait_blocks: [] },
    customField: { kept: true },
  }
}

export async function setup(plan?: User['plan']) {
  const user = await createUser()
  if (plan) await setUserPlan(user, plan)
  const workspace = await firstWorkspaceOf(user)
  return { user, workspace, token: await tokenFor(user) }
}
