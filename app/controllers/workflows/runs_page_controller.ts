import type { HttpContext } from '@adonisjs/core/http'
import { findWorkflowFor } from '#actions/workflows/workflow_access'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import type { WorkflowRunsPageProps } from '#shared/workflow/dto'

/**
 * /workflows/{id}/runs: a workflow's runs and the detail of one (?run=). The page reads the
 * runs from the REST API itself (the same policy-checked reads as API tokens); here only
 * membership is checked and the node titles given. Anyone else gets a not-found page.
 */
export default class WorkflowRunsPageController {
  async show(ctx: HttpContext) {
    const user = ctx.auth.getUserOrFail()
    const found = await findWorkflowFor(user, ctx.params.id, 'read').catch(() => null)
    if (!found) {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Workflow not found' })
    }
    const { workflow } = found
    await resolveCurrentWorkspace(ctx, user, workflow.workspaceId)
    const selected = ctx.request.qs().run
    const props: WorkflowRunsPageProps = {
      workflow: { id: workflow.id, name: workflow.name, workspaceId: workflow.workspaceId },
      nodes: (workflow.blocks ?? []).map((block) => ({
        id: block.id,
        title: typeof block.title === 'string' && block.title ? block.title : null,
        type: block.type,
      })),
      selectedRunId: typeof selected === 'string' && selected ? selected : null,
    }
    return ctx.inertia.render('workflows/runs', { ...props })
  }
}
