import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import WorkspaceMember from '#models/workspace_member'
import Folder from '#models/folder'
import { folderVisibilityFor } from '#services/folder_access'
import AppError from '#exceptions/app_error'
import CreateWorkspace from '#actions/workspaces/create_workspace'
import UpdateWorkspace from '#actions/workspaces/update_workspace'
import DeleteWorkspace from '#actions/workspaces/delete_workspace'
import { CreateFolder } from '#actions/folders/create_folder'
import { DeleteFolder } from '#actions/folders/delete_folder'
import { UpdateFolder } from '#actions/folders/update_folder'
import { findFolderIn } from '#actions/folders/folders'
import { findWorkspaceFor } from '#services/workspace_access'
import { toWorkspaceSummaryDto } from '#dtos/workspace_dto'
import { successReply, toTypebotFolderDto } from '#dtos/typebot_api_dto'
import { createWorkspaceValidator, updateWorkspaceValidator } from '#validators/workspace'
import {
  typebotFolderCreateValidator,
  typebotFolderUpdateValidator,
  typebotWorkspaceQueryValidator,
} from '#validators/typebot_api'
import type { WorkspaceRole } from '#shared/workspace_roles'

/** A workspace the caller belongs to (else "not found", so ids do not leak). */
async function load({ bouncer, params }: HttpContext) {
  const workspace = await Workspace.find(params.workspaceId)
  if (!workspace || (await bouncer.with('WorkspacePolicy').denies('view', workspace)))
    throw AppError.notFound('Workspace not found')
  return workspace
}

const workspaceJson = (workspace: Workspace, role: WorkspaceRole) => ({
  ...toWorkspaceSummaryDto(workspace, role),
  createdAt: workspace.createdAt.toISO()!,
  updatedAt: workspace.updatedAt.toISO()!,
})

async function writableWorkspace(ctx: HttpContext, workspaceId: string) {
  const { workspace, role } = await findWorkspaceFor(ctx.auth.user!, workspaceId)
  if (await ctx.bouncer.denies('authorIn', { role }))
    throw AppError.forbidden('Guests cannot change folders.')
  return workspace
}

/**
 * Workspaces and folders in the paths and shapes of Typebot's management API; the same
 * policies as the settings pages and the dashboard (docs/migrating-from-typebot.md).
 */
export default class TypebotWorkspacesController {
  async show(ctx: HttpContext) {
    const workspace = await load(ctx)
    const { role } = await findWorkspaceFor(ctx.auth.user!, workspace.id)
    return { workspace: workspaceJson(workspace, role) }
  }

  async store({ auth, request }: HttpContext) {
    const payload = await createWorkspaceValidator.validate(request.body())
    const workspace = await new CreateWorkspace().handle(auth.user!, payload)
    return { workspace: workspaceJson(workspace, 'ADMIN') }
  }

  async update(ctx: HttpContext) {
    const workspace = await load(ctx)
    await ctx.bouncer.with('WorkspacePolicy').authorize('edit', workspace)
    const payload = await updateWorkspaceValidator.validate(ctx.request.body())
    await new UpdateWorkspace().handle(ctx.auth.user!, workspace, payload)
    return { workspace: workspaceJson(workspace, 'ADMIN') }
  }

  async destroy(ctx: HttpContext) {
    const workspace = await load(ctx)
    await ctx.bouncer.with('WorkspacePolicy').authorize('delete', workspace)
    await new DeleteWorkspace().handle(ctx.auth.user!, workspace)
    return successReply()
  }

  async members(ctx: HttpContext) {
    const workspace = await load(ctx)
    const members = await WorkspaceMember.query()
      .where('workspace_id', workspace.id)
      .preload('user')
      .orderBy('created_at', 'asc')
    return {
      members: members.map((member) => ({
        workspaceId: workspace.id,
        user: { name: member.user.name, email: member.user.email, image: member.user.image },
        role: member.role,
      })),
    }
  }

  /** GET /folders?workspaceId=&parentFolderId=: one level (the top one without parent). */
  async folders({ auth, request }: HttpContext) {
    const query = await typebotWorkspaceQueryValidator.validate(request.qs())
    const { role } = await findWorkspaceFor(auth.user!, query.workspaceId)
    const hidden = (await folderVisibilityFor(auth.user!.id, query.workspaceId, role)).hiddenIds()
    const folders = await Folder.query()
      .where('workspace_id', query.workspaceId)
      .if(hidden.length > 0, (q) => q.whereNotIn('id', hidden))
      .if(query.parentFolderId, (q) => q.where('parent_folder_id', query.parentFolderId!))
      .if(!query.parentFolderId, (q) => q.whereNull('parent_folder_id'))
      .orderBy('name')
    return { folders: folders.map(toTypebotFolderDto) }
  }

  async folder({ auth, params, request }: HttpContext) {
    const query = await typebotWorkspaceQueryValidator.validate(request.qs())
    await findWorkspaceFor(auth.user!, query.workspaceId)
    const folder = await findFolderIn(query.workspaceId, params.folderId, { user: auth.user! })
    return { folder: toTypebotFolderDto(folder) }
  }

  async createFolder(ctx: HttpContext) {
    const payload = await typebotFolderCreateValidator.validate(ctx.request.body())
    const workspace = await writableWorkspace(ctx, payload.workspaceId)
    const folder = await new CreateFolder().handle(ctx.auth.user!, workspace, {
      name: payload.folderName,
      parentFolderId: payload.parentFolderId,
    })
    return { folder: toTypebotFolderDto(folder) }
  }

  async updateFolder(ctx: HttpContext) {
    const payload = await typebotFolderUpdateValidator.validate(ctx.request.body())
    const workspace = await writableWorkspace(ctx, payload.workspaceId)
    const user = ctx.auth.user!
    const folder = await findFolderIn(workspace.id, ctx.params.folderId, { user, need: 'edit' })
    await new UpdateFolder().handle(folder, payload.folder, user)
    return { folder: toTypebotFolderDto(folder) }
  }

  async destroyFolder(ctx: HttpContext) {
    const query = await typebotWorkspaceQueryValidator.validate(ctx.request.qs())
    const workspace = await writableWorkspace(ctx, query.workspaceId)
    const folder = await findFolderIn(workspace.id, ctx.params.folderId, {
      user: ctx.auth.user!,
      need: 'edit',
    })
    await new DeleteFolder().handle(folder)
    return { folder: toTypebotFolderDto(folder) }
  }
}
