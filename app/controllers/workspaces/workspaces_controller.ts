import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import CreateWorkspace from '#actions/workspaces/create_workspace'
import UpdateWorkspace from '#actions/workspaces/update_workspace'
import DeleteWorkspace from '#actions/workspaces/delete_workspace'
import { CURRENT_WORKSPACE_KEY } from '#services/current_workspace'
import { createWorkspaceValidator, updateWorkspaceValidator } from '#validators/workspace'

/**
 * A workspace the user belongs to; any other is "not found", so ids do not leak (a member
 * without the right role then gets 403 from the policy).
 */
async function load({ bouncer, params }: HttpContext) {
  const workspace = await Workspace.find(params.id)
  if (!workspace || (await bouncer.with('WorkspacePolicy').denies('view', workspace)))
    throw AppError.notFound('Workspace not found')
  return workspace
}

export default class WorkspacesController {
  async store({ auth, request, session, response }: HttpContext) {
    const payload = await request.validateUsing(createWorkspaceValidator)
    const workspace = await new CreateWorkspace().handle(auth.user!, payload)
    session.put(CURRENT_WORKSPACE_KEY, workspace.id)
    session.flash('toast', {
      type: 'success',
      title: 'Workspace created',
      description: workspace.name,
    })
    return response.redirect('/bots')
  }

  /** After switching, the user goes to /bots. */
  async switch(ctx: HttpContext) {
    const { session, response } = ctx
    const workspace = await load(ctx)
    session.put(CURRENT_WORKSPACE_KEY, workspace.id)
    return response.redirect('/bots')
  }

  async update(ctx: HttpContext) {
    const { auth, bouncer, request, session, response } = ctx
    const workspace = await load(ctx)
    await bouncer.with('WorkspacePolicy').authorize('edit', workspace)
    const payload = await request.validateUsing(updateWorkspaceValidator)
    await new UpdateWorkspace().handle(auth.user!, workspace, payload)
    session.flash('toast', { type: 'success', title: 'Workspace updated' })
    return response.redirect().withQs().back()
  }

  async destroy(ctx: HttpContext) {
    const { auth, bouncer, session, response } = ctx
    const workspace = await load(ctx)
    await bouncer.with('WorkspacePolicy').authorize('delete', workspace)
    await new DeleteWorkspace().handle(auth.user!, workspace)
    if (session.get(CURRENT_WORKSPACE_KEY) === workspace.id) session.forget(CURRENT_WORKSPACE_KEY)
    session.flash('toast', {
      type: 'success',
      title: 'Workspace deleted',
      description: workspace.name,
    })
    return response.redirect('/bots')
  }
}
