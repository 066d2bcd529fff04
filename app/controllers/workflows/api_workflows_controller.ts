import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { findWorkspaceFor } from '#services/workspace_access'
import { findWorkflowFor } from '#actions/workflows/workflow_access'
import { ArchiveWorkflow } from '#actions/workflows/archive_workflow'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { DeleteWorkflow } from '#actions/workflows/delete_workflow'
import { DuplicateWorkflow } from '#actions/workflows/duplicate_workflow'
import { ListWorkflows } from '#actions/workflows/list_workflows'
import { UpdateWorkflow } from '#actions/workflows/update_workflow'
import { ActivateWorkflow } from '#actions/workflows/activate_workflow'
import { DeactivateWorkflow } from '#actions/workflows/deactivate_workflow'
import { PublishWorkflow, workflowIssues } from '#actions/workflows/publish_workflow'
import { ListWorkflowVersions } from '#actions/workflows/list_workflow_versions'
import { RestoreWorkflowVersion } from '#actions/workflows/restore_workflow_version'
import { SaveNamedWorkflowVersion } from '#actions/workflows/save_named_workflow_version'
import { parseWorkflowImport } from '#actions/workflows/workflow_import'
import {
  lastRunTimes,
  toWorkflowDto,
  toWorkflowHistoryDto,
  toWorkflowSummaryDto,
} from '#dtos/workflow_dto'
import { namedVersionValidator, updateWorkflowValidator } from '#validators/workflow'

async function writable(ctx: HttpContext) {
  const found = await findWorkflowFor(ctx.auth.user!, ctx.params.id, 'write')
  const workspace = await Workspace.findOrFail(found.workflow.workspaceId)
  return { ...found, workspace }
}

/** REST API for workflows (API tokens or the session). Documented in openapi_workflows.ts. */
export default class ApiWorkflowsController {
  /** POST /api/v1/workflows {workspaceId, workflow?, name?}: imports, or starts an empty one. */
  async store({ auth, bouncer, request, response }: HttpContext) {
    const workspaceId = request.input('workspaceId')
    if (typeof workspaceId !== 'string' || !workspaceId) {
      throw new AppError('workspaceId is required', { status: 422, field: 'workspaceId' })
    }
    const { workspace, role } = await findWorkspaceFor(auth.user!, workspaceId)
    if (await bouncer.denies('authorIn', { role }))
      throw AppError.forbidden('Guests cannot create workflows.')
    const raw = request.input('workflow')
    const name = request.input('name')
    const workflow = await new CreateWorkflow().handle(auth.user!, workspace, {
      name: typeof name === 'string' ? name : null,
      ...(raw === undefined || raw === null
        ? {}
        : { content: parseWorkflowImport(raw, 'workflow'), keepId: true }),
    })
    return response.created(toWorkflowDto(workflow, 'write'))
  }

  /** GET /api/v1/workspaces/:id/workflows?q=&archived=true */
  async index({ auth, params, request, response }: HttpContext) {
    await findWorkspaceFor(auth.user!, params.id)
    const qs = request.qs()
    const workflows = await new ListWorkflows().handle(params.id, {
      q: typeof qs.q === 'string' ? qs.q : null,
      archived: qs.archived === 'true',
    })
    const lastRuns = await lastRunTimes(workflows.map((workflow) => workflow.id))
    return response.ok({
      workflows: workflows.map((workflow) => toWorkflowSummaryDto(workflow, lastRuns)),
    })
  }

  async show({ auth, params, response }: HttpContext) {
    const { workflow, mode } = await findWorkflowFor(auth.user!, params.id)
    return response.ok(toWorkflowDto(workflow, mode))
  }

  async update(ctx: HttpContext) {
    const { workflow, mode, workspace } = await writable(ctx)
    const { isArchived, ...patch } = await ctx.request.validateUsing(updateWorkflowValidator)
    const user = ctx.auth.user!
    if (Object.values(patch).some((value) => value !== undefined)) {
      await new UpdateWorkflow().handle(user, workspace, workflow, patch as any)
    }
    if (isArchived !== undefined) {
      await new ArchiveWorkflow().handle(user, workspace, workflow, isArchived)
    }
    // The draft is saved with its issues; the editor shows them beside the fields.
    return ctx.response.ok({
      ...toWorkflowDto(workflow, mode),
      issues: await workflowIssues(workflow.blocks),
    })
  }

  async destroy(ctx: HttpContext) {
    const { workflow } = await writable(ctx)
    await new DeleteWorkflow().handle(workflow)
    return ctx.response.noContent()
  }

  async publish(ctx: HttpContext) {
    const { workflow, mode, workspace } = await writable(ctx)
    await new PublishWorkflow().handle(ctx.auth.user!, workspace, workflow)
    return ctx.response.ok(toWorkflowDto(workflow, mode))
  }

  async activate(ctx: HttpContext) {
    const { workflow, mode, workspace } = await writable(ctx)
    await new ActivateWorkflow().handle(ctx.auth.user!, workspace, workflow)
    return ctx.response.ok(toWorkflowDto(workflow, mode))
  }

  async deactivate(ctx: HttpContext) {
    const { workflow, mode } = await writable(ctx)
    await new DeactivateWorkflow().handle(workflow)
    return ctx.response.ok(toWorkflowDto(workflow, mode))
  }

  async duplicate(ctx: HttpContext) {
    const { workflow, workspace } = await writable(ctx)
    const copy = await new DuplicateWorkflow().handle(ctx.auth.user!, workspace, workflow)
    return ctx.response.created(toWorkflowDto(copy, 'write'))
  }

  async versions({ auth, params, response }: HttpContext) {
    const { workflow } = await findWorkflowFor(auth.user!, params.id)
    return response.ok(toWorkflowHistoryDto(await new ListWorkflowVersions().handle(workflow)))
  }

  /** POST /api/v1/workflows/:id/versions {name}: keeps the draft as it is under a name. */
  async saveVersion(ctx: HttpContext) {
    const { workflow } = await writable(ctx)
    const { name } = await ctx.request.validateUsing(namedVersionValidator)
    await new SaveNamedWorkflowVersion().handle(ctx.auth.user!, workflow, name)
    return ctx.response.created(
      toWorkflowHistoryDto(await new ListWorkflowVersions().handle(workflow))
    )
  }

  async restoreVersion(ctx: HttpContext) {
    const { workflow, mode, workspace } = await writable(ctx)
    await new RestoreWorkflowVersion().handle(
      ctx.auth.user!,
      workspace,
      workflow,
      ctx.params.versionId
    )
    return ctx.response.ok(toWorkflowDto(workflow, mode))
  }
}
