import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type Workflow from '#models/workflow'
import type User from '#models/user'
import type Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { pluginRegistry } from '#services/plugin_registry'
import { assertNoIssues, issuesOfBlocks } from '#plugins/block_issues'
import type { BlockIssue } from '#shared/block_issues'
import { emitWorkflowActivated, emitWorkflowDeactivated } from '#services/workflow_events'
import { activateEventTrigger } from '#services/workflows/event_triggers'
import { recordVersion } from './workflow_history.js'
import { compileExecutable, WorkflowCompileError } from '#shared/workflow/validate'
import type { ExecutableWorkflow, WorkflowBlock } from '#shared/workflow/types'
import { assertValidWorkflow } from './workflows.js'
import { missingAttachment, workflowNodeCatalogue } from './workflow_plugins.js'
import { assertRunnableOnPlan } from './workflow_publishing.js'

/**
 * The fields of a workflow's enabled nodes that their plugins' validators refuse. A save
 * keeps them; a publish or a test run is refused while any remain.
 */
export async function workflowIssues(blocks: WorkflowBlock[]): Promise<BlockIssue[]> {
  return issuesOfBlocks(
    await pluginRegistry(),
    blocks.filter((block) => !block.isDisabled),
    'workflow'
  )
}

/**
 * The draft compiled as runs need it (the nodes, the one trigger, the waits, the variables), after the checks publishing makes: what a publish makes live and what a
 * test run of the draft runs.
 */
export async function compileDraft(
  user: User,
  workspace: Workspace,
  workflow: Workflow,
  doing: 'publishing' | 'running' = 'publishing'
) {
  const content = assertValidWorkflow({
    name: workflow.name,
    description: workflow.description,
    icon: workflow.icon,
    blocks: workflow.blocks,
    edges: workflow.edges,
    variables: workflow.variables,
    settings: workflow.settings,
  })
  const { categoryOf, isWaitNode, nodeName, requiredSlotsOf } = await workflowNodeCatalogue()
  let executable: ExecutableWorkflow
  try {
    executable = compileExecutable(content, categoryOf, isWaitNode)
  } catch (error) {
    if (!(error instanceof WorkflowCompileError)) throw error
    throw new AppError(error.message, {
      status: 422,
      code: error.code,
      description:
        error.triggerCount === 0
          ? 'Add a trigger node (or enable the one you have), then publish again.'
          : 'Keep a single enabled trigger node, then publish again.',
    })
  }
  const missing = missingAttachment(executable, requiredSlotsOf)
  if (missing) {
    const node = missing.block.title || nodeName(missing.block.type)
    const slot = missing.slot.label ?? missing.slot.name
    throw new AppError(`"${node}" needs a ${slot} attachment`, {
      status: 422,
      code: 'E_WORKFLOW_COMPILE',
      description: `Plug a ${slot} node into "${node}" (or disable the node), then publish again.`,
    })
  }
  await assertRunnableOnPlan(user, workspace, executable)
  assertNoIssues(await workflowIssues(executable.blocks), doing, (issue) => {
    const block = executable.blocks.find((b) => b.id === issue.blockId)
    return `"${block?.title || nodeName(issue.blockType)}"`
  })
  const compiled: ExecutableWorkflow = { ...executable, variables: content.variables }
  return { content, executable: compiled }
}

export class PublishWorkflow {
  /**
   * Compiles the draft (compileDraft) and marks the workflow PUBLISHED: this becomes the
   * live version. Publishing does not activate it; an active workflow stays active and its
   * trigger switches to the new version. Each publish is a version of the history.
   */
  async handle(user: User, workspace: Workspace, workflow: Workflow) {
    const { content, executable: live } = await compileDraft(user, workspace, workflow)
    const active = !!workflow.isActive
    if (active) await switchTriggers(workflow, live)
    await db.transaction(async (trx) => {
      workflow.useTransaction(trx)
      workflow.merge({ executableWorkflow: live, status: 'PUBLISHED', publishedAt: DateTime.now() })
      await workflow.save()
      await recordVersion(workflow, { user, updatedBy: 'user' }, trx, { kind: 'publish' })
    })
    if (active) {
      await emitWorkflowActivated({
        workflowId: workflow.id,
        workspaceId: workflow.workspaceId,
        executableWorkflow: live,
        settings: content.settings,
      })
    }
    return workflow
  }
}

/**
 * An active workflow published again: its trigger stops and starts on the new version
 * (a schedule's cron or an event trigger's options may have changed). When the new
 * trigger is refused, the old one is started again and the publish fails with the reason.
 */
async function switchTriggers(workflow: Workflow, next: ExecutableWorkflow) {
  const previous = workflow.executableWorkflow
  await emitWorkflowDeactivated({
    workflowId: workflow.id,
    workspaceId: workflow.workspaceId,
    reason: 'republished',
  })
  try {
    await activateEventTrigger({ ...workflowIdentity(workflow), executableWorkflow: next })
  } catch (error) {
    if (previous) {
      await activateEventTrigger({ ...workflowIdentity(workflow), executableWorkflow: previous })
        .then(() =>
          emitWorkflowActivated({
            workflowId: workflow.id,
            workspaceId: workflow.workspaceId,
            executableWorkflow: previous,
            settings: workflow.settings,
          })
        )
        .catch(() => {})
    }
    throw error
  }
}

function workflowIdentity(workflow: Workflow) {
  return { id: workflow.id, workspaceId: workflow.workspaceId, createdBy: workflow.createdBy }
}
