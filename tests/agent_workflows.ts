import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import WorkflowRunNode from '#models/workflow_run_node'
import { CreateCredential } from '#actions/credentials/create_credential'
import { newId } from '#services/ids'
import { pluginRegistry } from '#services/plugin_registry'
import { categoryOn } from '#plugins/define_plugin'
import { loadWorkflow } from '#services/workflows/runnable_workflow'
import { compileExecutable } from '#shared/workflow/validate'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

/**
 * A published workflow `trigger -> LLM agent` whose agent has a Model node and Tool nodes
 * plugged into its slots, each node with credentials of its own when given: for tests of
 * Model and Tool plugins run by the real executor.
 */

export interface AttachedSpec {
  type: string
  credentials?: Record<string, unknown>
  options: Record<string, unknown>
}

export async function agentWorkflow(spec: {
  model: AttachedSpec
  tools?: AttachedSpec[]
  systemPrompt?: string
}) {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const optionsOf = async (attached: AttachedSpec) => {
    if (!attached.credentials) return attached.options
    const credential = await new CreateCredential().handle(user, workspace, {
      type: attached.type,
      name: attached.type,
      data: attached.credentials,
    })
    return { credentialsId: credential.id, ...attached.options }
  }
  const blocks: WorkflowBlock[] = [
    { id: 'trigger', type: 'manual-trigger', graphCoordinates: { x: 0, y: 0 } },
    {
      id: 'agent',
      type: 'llm-agent',
      graphCoordinates: { x: 300, y: 0 },
      options: {
        queryPrompt: spec.systemPrompt ?? 'You are a calculator.',
        userQuery: '{{$input.question}}',
      },
    },
    {
      id: 'model',
      type: spec.model.type,
      graphCoordinates: { x: 300, y: 200 },
      options: { action: 'Chat model', ...(await optionsOf(spec.model)) },
    },
  ]
  const edges: WorkflowEdge[] = [
    { id: 'e1', from: { blockId: 'trigger' }, to: { blockId: 'agent' } },
    {
      id: 'a-model',
      from: { blockId: 'agent' },
      to: { blockId: 'model' },
      isAttachment: true,
      attachmentName: 'model',
    },
  ]
  for (const [index, tool] of (spec.tools ?? []).entries()) {
    const id = `tool-${index + 1}`
    blocks.push({
      id,
      type: tool.type,
      graphCoordinates: { x: 500 + index * 200, y: 200 },
      options: await optionsOf(tool),
    })
    edges.push({
      id: `a-${id}`,
      from: { blockId: 'agent' },
      to: { blockId: id },
      isAttachment: true,
      attachmentName: 'tools',
    })
  }
  const workflow = await insertCompiledWorkflow({
    workspaceId: workspace.id,
    userId: user.id,
    name: 'Agent',
    blocks,
    edges,
  })
  return { workflow, user, workspace }
}

/**
 * Stores a workflow as published and active, compiled as publishing compiles it (attachments
 * included), and loads it for `createRun`.
 */
export async function insertCompiledWorkflow(spec: {
  workspaceId: string
  userId: string
  name: string
  blocks: WorkflowBlock[]
  edges: WorkflowEdge[]
}) {
  const registry = await pluginRegistry()
  const executable = compileExecutable({ blocks: spec.blocks, edges: spec.edges }, (type) => {
    const plugin = registry.get(type)
    return plugin ? categoryOn(plugin, 'workflow') : undefined
  })
  const id = newId()
  const now = DateTime.now().toFormat(db.connection().dialect.dateTimeFormat)
  await db.table('workflows').insert({
    id,
    workspace_id: spec.workspaceId,
    created_by: spec.userId,
    name: spec.name,
    status: 'PUBLISHED',
    is_active: true,
    blocks: JSON.stringify(spec.blocks),
    edges: JSON.stringify(spec.edges),
    variables: JSON.stringify([]),
    settings: JSON.stringify({}),
    executable_workflow: JSON.stringify(executable),
    created_at: now,
    updated_at: now,
  })
  return (await loadWorkflow(id))!
}

export function agentNodeOf(runId: string) {
  return WorkflowRunNode.query().where('runId', runId).where('nodeId', 'agent').firstOrFail()
}
