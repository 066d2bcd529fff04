import type { HttpContext } from '@adonisjs/core/http'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import Folder from '#models/folder'
import { folderVisibilityFor } from '#services/folder_access'
import Workspace from '#models/workspace'
import AppError from '#exceptions/app_error'
import { findBotFor } from '#actions/bots/bot_access'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { UnpublishBot } from '#actions/bots/unpublish_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { findWorkspaceFor } from '#services/workspace_access'
import { BotParseError, importBot } from '#shared/bot/parse'
import { updateBotValidator } from '#validators/bot'
import { typebotCreateValidator, typebotWorkspaceQueryValidator } from '#validators/typebot_api'
import {
  successReply,
  toPublishedTypebotDto,
  toTypebotDto,
  toTypebotSummaryDto,
} from '#dtos/typebot_api_dto'

/**
 * The folder a new bot goes in. An export names the folder it had in the other app: an
 * import ignores a folder that is not one of this workspace's; a create refuses it.
 */
async function folderFor(workspaceId: string, folderId: unknown, fromExport: boolean) {
  if (typeof folderId !== 'string' || !folderId) return null
  if (!fromExport) return folderId
  const folder = await Folder.query()
    .where('id', folderId)
    .where('workspace_id', workspaceId)
    .first()
  return folder?.id ?? null
}

/** Typebot's "read" / "write" for our access modes ('manage' can write). */
const accessRight = (mode: string) => (mode === 'read' ? ('read' as const) : ('write' as const))

function parsed(raw: unknown) {
  try {
    return importBot(raw)
  } catch (error) {
    if (error instanceof BotParseError) {
      throw new AppError(error.message, { status: 422, field: 'typebot' })
    }
    throw error
  }
}

/**
 * /api/v1/typebots...: the bot routes of Typebot's management API, as aliases of ours
 * (same actions, tokens and access checks; docs/migrating-from-typebot.md).
 */
export default class TypebotsController {
  /** GET /typebots?workspaceId=&folderId= */
  async index({ auth, bouncer, request }: HttpContext) {
    const query = await typebotWorkspaceQueryValidator.validate(request.qs())
    const { role } = await findWorkspaceFor(auth.user!, query.workspaceId)
    // Bots in folders not shared with the caller are left out (docs/folder_sharing.md).
    const hidden = (await folderVisibilityFor(auth.user!.id, query.workspaceId, role)).hiddenIds()
    const bots = await Bot.query()
      .where('workspace_id', query.workspaceId)
      .where('is_archived', false)
      .if(hidden.length > 0, (q) =>
        q.where((w) => w.whereNull('folder_id').orWhereNotIn('folder_id', hidden))
      )
      .if(query.folderId, (q) => q.where('folder_id', query.folderId!))
      .orderBy('updated_at', 'desc')
    const published = await PublishedBot.query()
      .whereIn(
        'bot_id',
        bots.map((bot) => bot.id)
      )
      .select('id', 'bot_id')
    const publishedIds = new Map(published.map((row) => [row.botId, row.id]))
    const right = (await bouncer.allows('authorIn', { role })) ? 'write' : 'read'
    return {
      typebots: bots.map((bot) => toTypebotSummaryDto(bot, publishedIds.get(bot.id), right)),
    }
  }

  /** GET /typebots/:typebotId: {typebot, currentUserMode}. */
  async show({ auth, params }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.typebotId)
    return { typebot: toTypebotDto(bot), currentUserMode: accessRight(mode) }
  }

  /** POST /typebots {workspaceId, typebot}: a new bot from the given fields (ids are ours). */
  async store(ctx: HttpContext) {
    return this.create(ctx, false)
  }

  /** POST /typebots/import {workspaceId, typebot}: an exported bot, its ids kept when free. */
  async import(ctx: HttpContext) {
    return this.create(ctx, true)
  }

  private async create({ auth, bouncer, request, response }: HttpContext, keepIds: boolean) {
    const payload = await typebotCreateValidator.validate(request.body())
    const { workspace, role } = await findWorkspaceFor(auth.user!, payload.workspaceId)
    if (await bouncer.denies('authorIn', { role }))
      throw AppError.forbidden('Guests cannot create bots.')
    const given = payload.typebot ?? {}
    const content = keepIds || Array.isArray(given.groups) ? parsed(given) : undefined
    const bot = await new CreateBot().handle(auth.user!, workspace, {
      name: typeof given.name === 'string' ? given.name : null,
      folderId: await folderFor(workspace.id, given.folderId, keepIds),
      content,
      keepIds,
    })
    return response.ok({ typebot: toTypebotDto(bot) })
  }

  /** PATCH /typebots/:typebotId {typebot}: the given fields replace the draft's. */
  async update({ auth, params, request }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.typebotId, 'write')
    const patch = await updateBotValidator.validate(request.input('typebot') ?? {})
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    await new UpdateBot().handle(bot, patch as any, { user: auth.user!, workspace })
    return { typebot: toTypebotDto(bot) }
  }

  async destroy({ auth, params }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.typebotId, 'manage')
    await bot.delete()
    return successReply()
  }

  /** GET /typebots/:typebotId/publishedTypebot: the copy visitors chat with. */
  async published({ auth, params }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.typebotId)
    const published = await PublishedBot.findBy('bot_id', bot.id)
    if (!published) throw AppError.notFound('Published typebot not found')
    return { publishedTypebot: toPublishedTypebotDto(published) }
  }

  async publish({ auth, params }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.typebotId, 'write')
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    await new PublishBot().handle(auth.user!, workspace, bot)
    return successReply()
  }

  async unpublish({ auth, params }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.typebotId, 'write')
    await new UnpublishBot().handle(bot)
    return successReply()
  }
}
