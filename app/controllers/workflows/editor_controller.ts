import type { HttpContext } from '@adonisjs/core/http'
import Workflow from '#models/workflow'
import Workspace from '#models/workspace'
import { toWorkflowJson } from '#dtos/workflow_dto'
import { roleIn } from '#services/workspace_access'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { planFor } from '#services/capabilities'
import { availabilityFor } from '#services/marketplace'
import { workflowIssues } from '#actions/workflows/publish_workflow'
import { pluginRegistry } from '#services/plugin_registry'
import { appUrl } from '#config/app'
import { editorViewOf } from '#plugins/derive'
import { userModeForRole } from '#shared/workspace_roles'
import type { WorkflowEditPageProps } from '#shared/workflow/dto'
import { categoryOn } from '#plugins/define_plugin'
import { withCanonicalTypes } from '#actions/workflows/workflow_plugins'

/**
 * /workflows/{id}: the workflow editor. Members get their mode (write or read by role);
 * anyone else gets a not-found page, so ids do not leak.
 */
export default class WorkflowEditorController {
  async show(ctx: HttpContext) {
    const user = ctx.auth.user!
    const workflow = await Workflow.find(ctx.params.id)
    const role = workflow ? await roleIn(user, workflow.workspaceId) : null
    if (!workflow || role === null) {
      ctx.response.status(404)
      return ctx.inertia.render('errors/not_found', { error: 'Workflow not found' })
    }
    await resolveCurrentWorkspace(ctx, user, workflow.workspaceId)
    const workspace = await Workspace.findOrFail(workflow.workspaceId)
    const { plan } = await planFor(user, workspace)
    const availability = await availabilityFor(plan)
    const registry = await pluginRegistry()
    const plugins = registry
      .forWorkflows()
      .filter((plugin) => availability.get(plugin.id) !== 'hidden')
      .map((plugin) => ({
        id: plugin.id,
        name: plugin.name,
        fullName: plugin.fullName,
        tags: plugin.tags,
        category: categoryOn(plugin, 'workflow'),
        icon: plugin.icon ?? null,
        locked: availability.get(plugin.id) === 'locked',
        ...editorViewOf(plugin, 'workflow'),
      }))
    const stored = toWorkflowJson(workflow)
    const blocks = withCanonicalTypes(stored.blocks, registry)
    const props: WorkflowEditPageProps = {
      workflow: { ...stored, blocks },
      currentUserMode: userModeForRole(role),
      plugins,
      appUrl,
      issues: await workflowIssues(blocks),
    }
    return ctx.inertia.render('workflows/edit', { ...props })
  }
}
