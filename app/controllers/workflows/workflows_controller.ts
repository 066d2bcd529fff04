import type { HttpContext } from '@adonisjs/core/http'
import { readFile } from 'node:fs/promises'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { findWorkflowFor } from '#actions/workflows/workflow_access'
import { parseWorkflowImport } from '#actions/workflows/workflow_import'
import { ArchiveWorkflow } from '#actions/workflows/archive_workflow'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { DeleteWorkflow } from '#actions/workflows/delete_workflow'
import { DuplicateWorkflow } from '#actions/workflows/duplicate_workflow'
import { ListWorkflows } from '#actions/workflows/list_workflows'
import { lastRunTimes, toWorkflowJson, toWorkflowSummaryDto } from '#dtos/workflow_dto'
import { createWorkflowValidator } from '#validators/workflow'
import type { WorkflowListPageProps } from '#shared/workflow/dto'

async function currentWorkspaceOf(ctx: HttpContext, change: boolean) {
  const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
  if (!current) throw AppError.notFound('Workspace not found')
  if (change && (await ctx.bouncer.denies('authorIn', current))) {
    throw AppError.forbidden('Guests cannot change workflows.')
  }
  return current
}

async function writable(ctx: HttpContext) {
  const { workflow } = await findWorkflowFor(ctx.auth.user!, ctx.params.id, 'write')
  const workspace = await Workspace.findOrFail(workflow.workspaceId)
  return { workflow, workspace }
}

/** The workflow list of the current workspace and what its buttons and menus do. */
export default class WorkflowsController {
  async index(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx, false)
    const q = typeof ctx.request.qs().q === 'string' ? ctx.request.qs().q.trim() : ''
    const workflows = await new ListWorkflows().handle(workspace.id, { q })
    const lastRuns = await lastRunTimes(workflows.map((workflow) => workflow.id))
    const props: WorkflowListPageProps = {
      workflows: workflows.map((workflow) => toWorkflowSummaryDto(workflow, lastRuns)),
      q,
    }
    return ctx.inertia.render('workflows/index', { ...props })
  }

  /** POST /workflows: a new empty workflow opens in the editor. */
  async create(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx, true)
    const payload = await ctx.request.validateUsing(createWorkflowValidator)
    const workflow = await new CreateWorkflow().handle(ctx.auth.user!, workspace, payload)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Workflow created',
      description: workflow.name,
    })
    return ctx.response.redirect(`/workflows/${workflow.id}`)
  }

  /** A workflow file (the JSON export writes); a file that is not a workflow creates nothing. */
  async import(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx, true)
    const file = ctx.request.file('file', { size: '10mb', extnames: ['json'] })
    let raw: unknown = null
    try {
      raw = file?.tmpPath
        ? JSON.parse(await readFile(file.tmpPath, 'utf8'))
        : ctx.request.input('workflow')
    } catch {
      raw = null
    }
    const content = parseWorkflowImport(raw, 'file')
    const workflow = await new CreateWorkflow().handle(ctx.auth.user!, workspace, { content })
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Workflow imported',
      description: workflow.name,
    })
    return ctx.response.redirect('/workflows')
  }

  async export(ctx: HttpContext) {
    const { workflow } = await findWorkflowFor(ctx.auth.user!, ctx.params.id)
    const name = workflow.name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'workflow'
    ctx.response.header('content-disposition', `attachment; filename="${name}.json"`)
    return ctx.response.json(toWorkflowJson(workflow))
  }

  async duplicate(ctx: HttpContext) {
    const { workflow, workspace } = await writable(ctx)
    const copy = await new DuplicateWorkflow().handle(ctx.auth.user!, workspace, workflow)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Workflow duplicated',
      description: copy.name,
    })
    return ctx.response.redirect().withQs().back()
  }

  /** {archived: false} brings an archived workflow back (the toast's undo). */
  async archive(ctx: HttpContext) {
    const { workflow, workspace } = await writable(ctx)
    const archived = ctx.request.input('archived', true) !== false
    await new ArchiveWorkflow().handle(ctx.auth.user!, workspace, workflow, archived)
    return ctx.response.redirect().withQs().back()
  }

  async destroy(ctx: HttpContext) {
    const { workflow } = await writable(ctx)
    await new DeleteWorkflow().handle(workflow)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Workflow deleted',
      description: workflow.name,
    })
    return ctx.response.redirect().withQs().back()
  }
}
