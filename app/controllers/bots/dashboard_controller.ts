import type { HttpContext } from '@adonisjs/core/http'
import { readFile } from 'node:fs/promises'
import Bot from '#models/bot'
import Folder from '#models/folder'
import AppError from '#exceptions/app_error'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { hasFeature } from '#services/capabilities'
import { findBotFor } from '#actions/bots/bot_access'
import { CreateBot } from '#actions/bots/create_bot'
import { DuplicateBot } from '#actions/bots/duplicate_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { publishedBotIds } from '#actions/bots/bots'
import { CreateFolder } from '#actions/folders/create_folder'
import { DeleteFolder } from '#actions/folders/delete_folder'
import { UpdateFolder } from '#actions/folders/update_folder'
import { findFolderIn } from '#actions/folders/folders'
import { toBotJson, toBotSummaryDto, toFolderDto } from '#dtos/bot_dto'
import {
  createBotValidator,
  folderSharingValidator,
  folderValidator,
  updateBotValidator,
} from '#validators/bot'
import { folderSharingOf, UpdateFolderSharing } from '#actions/folders/folder_sharing'
import { folderVisibilityFor } from '#services/folder_access'
import { BotParseError, importBot } from '#shared/bot/parse'
import Workspace from '#models/workspace'
import { sharesFolder } from '#policies/folder_policy'

async function currentWorkspaceOf(ctx: HttpContext) {
  const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
  if (!current) throw AppError.notFound('Workspace not found')
  if (ctx.request.method() !== 'GET' && (await ctx.bouncer.denies('authorIn', current)))
    throw AppError.forbidden('Guests cannot change bots.')
  return current
}

/** "My bots": folders and bots of the current workspace, one folder level at a time. */
export default class DashboardController {
  async index(ctx: HttpContext) {
    return this.dashboard(ctx, false)
  }

  /**
   * GET /bots/create: the dashboard with the creation dialog open, for links
   * and bookmarks. It only shows the dialog; the bot is made by its POST /bots, as from the
   * button. Guests and a workspace at its bot limit get the dashboard as /bots shows it.
   */
  async create(ctx: HttpContext) {
    return this.dashboard(ctx, true)
  }

  private async dashboard(ctx: HttpContext, creating: boolean) {
    const user = ctx.auth.user!
    const { workspace, role } = await currentWorkspaceOf(ctx)
    const folderId =
      typeof ctx.request.qs().folderId === 'string' ? ctx.request.qs().folderId : null
    const currentFolder = folderId ? await findFolderIn(workspace.id, folderId, { user }) : null
    // Folders shared with chosen members are hidden from the others (docs/folder_sharing.md).
    const visibility = await folderVisibilityFor(user.id, workspace.id, role)
    const hidden = visibility.hiddenIds()

    const folders = await Folder.query()
      .where('workspace_id', workspace.id)
      .if(currentFolder, (q) => q.where('parent_folder_id', currentFolder!.id))
      .if(!currentFolder, (q) => q.whereNull('parent_folder_id'))
      .if(hidden.length > 0, (q) => q.whereNotIn('id', hidden))
      .orderBy('name')
    const bots = await Bot.query()
      .where('workspace_id', workspace.id)
      .where('is_archived', false)
      .if(currentFolder, (q) => q.where('folder_id', currentFolder!.id))
      .if(!currentFolder, (q) => q.whereNull('folder_id'))
      .orderBy('updated_at', 'desc')
    const published = await publishedBotIds(bots)
    const breadcrumbs = []
    for (let cursor = currentFolder; cursor;) {
      breadcrumbs.unshift({ id: cursor.id, name: cursor.name })
      cursor = cursor.parentFolderId ? await Folder.find(cursor.parentFolderId) : null
    }
    const allFolders = await Folder.query()
      .where('workspace_id', workspace.id)
      .if(hidden.length > 0, (q) => q.whereNotIn('id', hidden))
      .orderBy('name')
    const folderDto = (folder: Folder) => ({
      ...toFolderDto(folder),
      access: visibility.of(folder.id) ?? 'view',
      canShare: sharesFolder(user, role, folder),
    })
    return ctx.inertia.render('bots/index', {
      folders: folders.map(folderDto),
      allFolders: allFolders.map(toFolderDto),
      bots: bots.map((b) => toBotSummaryDto(b, published.has(b.id))),
      currentFolder: currentFolder ? folderDto(currentFolder) : null,
      breadcrumbs,
      canUseFolders: await hasFeature(user, workspace, 'workspaceWithFolder'),
      canShareFolders: await hasFeature(user, workspace, 'userWiseFolderShare'),
      openCreate: creating && (await ctx.bouncer.allows('authorIn', { role })),
    })
  }

  async createBot(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const payload = await ctx.request.validateUsing(createBotValidator)
    const bot = await new CreateBot().handle(ctx.auth.user!, workspace, payload)
    ctx.session.flash('toast', { type: 'success', title: 'Bot created', description: bot.name })
    return ctx.response.redirect(`/bots/${bot.id}/edit`)
  }

  /** Import a bot file (versions 3 to 6); a file that is not a bot creates nothing. */
  async importBot(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const file = ctx.request.file('file', { size: '10mb', extnames: ['json'] })
    const folderId = ctx.request.input('folderId') || null
    let raw: unknown
    try {
      raw = file?.tmpPath
        ? JSON.parse(await readFile(file.tmpPath, 'utf8'))
        : ctx.request.input('bot')
    } catch {
      raw = null
    }
    let content
    try {
      content = importBot(raw)
    } catch (error) {
      if (error instanceof BotParseError)
        throw new AppError(error.message, { status: 422, field: 'file' })
      throw error
    }
    const bot = await new CreateBot().handle(ctx.auth.user!, workspace, {
      content,
      folderId,
      uniqueName: true,
    })
    ctx.session.flash('toast', { type: 'success', title: 'Bot imported', description: bot.name })
    return ctx.response.redirect(bot.folderId ? `/bots?folderId=${bot.folderId}` : '/bots')
  }

  async exportBot(ctx: HttpContext) {
    const { bot } = await findBotFor(ctx.auth.user!, ctx.params.id)
    const name = bot.name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'bot'
    ctx.response.header('content-disposition', `attachment; filename="${name}.json"`)
    return ctx.response.json(toBotJson(bot))
  }

  async duplicate(ctx: HttpContext) {
    const { bot } = await findBotFor(ctx.auth.user!, ctx.params.id, 'manage')
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    const copy = await new DuplicateBot().handle(ctx.auth.user!, workspace, bot)
    ctx.session.flash('toast', { type: 'success', title: 'Bot duplicated', description: copy.name })
    return ctx.response.redirect().withQs().back()
  }

  /** Rename, move to a folder, archive or restore. */
  async updateBot(ctx: HttpContext) {
    const { bot } = await findBotFor(ctx.auth.user!, ctx.params.id, 'write')
    const patch = await ctx.request.validateUsing(updateBotValidator)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    await new UpdateBot().handle(
      bot,
      {
        name: patch.name,
        icon: patch.icon,
        folderId: patch.folderId,
        isArchived: patch.isArchived,
      },
      { user: ctx.auth.user!, workspace }
    )
    return ctx.response.redirect().withQs().back()
  }

  async deleteBot(ctx: HttpContext) {
    const { bot } = await findBotFor(ctx.auth.user!, ctx.params.id, 'manage')
    await bot.delete()
    ctx.session.flash('toast', { type: 'success', title: 'Bot deleted', description: bot.name })
    return ctx.response.redirect().withQs().back()
  }

  async createFolder(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const payload = await ctx.request.validateUsing(folderValidator)
    await new CreateFolder().handle(ctx.auth.user!, workspace, payload)
    return ctx.response.redirect().withQs().back()
  }

  async updateFolder(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const user = ctx.auth.user!
    const folder = await findFolderIn(workspace.id, ctx.params.id, { user, need: 'edit' })
    const payload = await ctx.request.validateUsing(folderValidator)
    await new UpdateFolder().handle(folder, payload, user)
    return ctx.response.redirect().withQs().back()
  }

  async deleteFolder(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const user = ctx.auth.user!
    const folder = await findFolderIn(workspace.id, ctx.params.id, { user, need: 'edit' })
    await new DeleteFolder().handle(folder)
    ctx.session.flash('toast', {
      type: 'success',
      title: 'Folder deleted',
      description: folder.name,
    })
    return ctx.response.redirect(
      folder.parentFolderId ? `/bots?folderId=${folder.parentFolderId}` : '/bots'
    )
  }

  /** GET /api/folders/:id/sharing: the Share dialog's state (docs/folder_sharing.md). */
  async sharing(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const folder = await findFolderIn(workspace.id, ctx.params.id)
    if (await ctx.bouncer.with('FolderPolicy').denies('view', folder))
      throw AppError.notFound('Folder not found')
    await ctx.bouncer.with('FolderPolicy').authorize('share', folder)
    return ctx.response.ok(await folderSharingOf(folder))
  }

  /** PUT /api/folders/:id/sharing {isRestricted, shares}: replaces who the folder is shared with. */
  async updateSharing(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const folder = await findFolderIn(workspace.id, ctx.params.id)
    if (await ctx.bouncer.with('FolderPolicy').denies('view', folder))
      throw AppError.notFound('Folder not found')
    await ctx.bouncer.with('FolderPolicy').authorize('share', folder)
    const payload = await ctx.request.validateUsing(folderSharingValidator)
    return ctx.response.ok(
      await new UpdateFolderSharing().handle(ctx.auth.user!, workspace, folder, payload)
    )
  }
}
