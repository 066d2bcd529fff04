import type { HttpContext } from '@adonisjs/core/http'
import Bot from '#models/bot'
import PublishedBot from '#models/published_bot'
import AppError from '#exceptions/app_error'
import { findBotFor } from '#actions/bots/bot_access'
import { CreateBot } from '#actions/bots/create_bot'
import { botIssues, PublishBot } from '#actions/bots/publish_bot'
import { RestorePublishedBot } from '#actions/bots/restore_published_bot'
import { UnpublishBot } from '#actions/bots/unpublish_bot'
import { UpdateBot } from '#actions/bots/update_bot'
import { VerifyCustomDomain, customDomainStatusOf } from '#actions/bots/verify_custom_domain'
import { publishedBotIds } from '#actions/bots/bots'
import { findWorkspaceFor } from '#services/workspace_access'
import { folderVisibilityFor } from '#services/folder_access'
import { toBotDto, toBotSummaryDto, toPublishedContentDto } from '#dtos/bot_dto'
import { namedBotVersionValidator, updateBotValidator } from '#validators/bot'
import { ListBotVersions } from '#actions/bots/list_bot_versions'
import { RestoreBotVersion } from '#actions/bots/restore_bot_version'
import { SaveNamedBotVersion } from '#actions/bots/save_named_bot_version'
import { toBotHistoryDto } from '#dtos/bot_dto'
import { BotParseError, importBot } from '#shared/bot/parse'
import Workspace from '#models/workspace'

/** REST API for bots (API tokens or the session). Documented in the OpenAPI file. */
export default class ApiBotsController {
  /** POST /api/v1/bots {workspaceId, bot}: imports like the UI (versions 3 to 6). */
  async store({ auth, bouncer, request, response }: HttpContext) {
    const workspaceId = request.input('workspaceId')
    if (typeof workspaceId !== 'string' || !workspaceId) {
      throw new AppError('workspaceId is required', { status: 422, field: 'workspaceId' })
    }
    const { workspace, role } = await findWorkspaceFor(auth.user!, workspaceId)
    if (await bouncer.denies('authorIn', { role }))
      throw AppError.forbidden('Guests cannot create bots.')
    let content
    try {
      content = importBot(request.input('bot'))
    } catch (error) {
      if (error instanceof BotParseError)
        throw new AppError(error.message, { status: 422, field: 'bot' })
      throw error
    }
    const bot = await new CreateBot().handle(auth.user!, workspace, { content, keepIds: true })
    return response.created(toBotDto(bot, 'write', null))
  }

  async index({ auth, params, request, response }: HttpContext) {
    const { role } = await findWorkspaceFor(auth.user!, params.id)
    // Bots in folders not shared with the caller are left out (docs/folder_sharing.md).
    const hidden = (await folderVisibilityFor(auth.user!.id, params.id, role)).hiddenIds()
    const query = Bot.query().where('workspace_id', params.id).orderBy('updated_at', 'desc')
    if (hidden.length > 0)
      query.where((q) => q.whereNull('folder_id').orWhereNotIn('folder_id', hidden))
    const folderId = request.qs().folderId
    if (typeof folderId === 'string') query.where('folder_id', folderId)
    if (request.qs().archived !== 'true') query.where('is_archived', false)
    const bots = await query
    const published = await publishedBotIds(bots)
    return response.ok({ bots: bots.map((b) => toBotSummaryDto(b, published.has(b.id))) })
  }

  async show({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id)
    const published = await PublishedBot.findBy('bot_id', bot.id)
    return response.ok(toBotDto(bot, mode, published))
  }

  /**
   * GET /api/v1/bots/{id}/published: the published version ({ published: null } before the
   * first publish). The editor asks again when its tab comes back, since another tab or a
   * teammate may have published meanwhile.
   */
  async published({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id)
    const published = await PublishedBot.findBy('bot_id', bot.id)
    return response.ok({ published: published ? toPublishedContentDto(published) : null })
  }

  async update({ auth, params, request, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'write')
    const patch = await request.validateUsing(updateBotValidator)
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    await new UpdateBot().handle(bot, patch as any, { user: auth.user!, workspace })
    const published = await PublishedBot.findBy('bot_id', bot.id)
    // The draft is saved with its issues; the editor shows them beside the fields.
    return response.ok({ ...toBotDto(bot, mode, published), issues: await botIssues(bot.groups) })
  }

  async destroy({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id, 'manage')
    await bot.delete()
    return response.noContent()
  }

  async publish({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'write')
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    const published = await new PublishBot().handle(auth.user!, workspace, bot)
    return response.ok(toBotDto(bot, mode, published))
  }

  async unpublish({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'write')
    await new UnpublishBot().handle(bot)
    return response.ok(toBotDto(bot, mode, null))
  }

  /** Copies the published content over the draft (engine 6 only), keeping the draft's metadata. */
  async restorePublished({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'write')
    const workspace = await Workspace.findOrFail(bot.workspaceId)
    await new RestorePublishedBot().handle(bot, { user: auth.user!, workspace })
    const published = await PublishedBot.findBy('bot_id', bot.id)
    return response.ok(toBotDto(bot, mode, published))
  }

  /** GET /api/v1/bots/:id/custom-domain: the domain, pending or verified, and the TXT record to add. */
  async customDomain({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id, 'read')
    return response.ok(customDomainStatusOf(bot))
  }

  /** POST /api/v1/bots/:id/custom-domain/verify: checks the TXT record now. */
  async verifyCustomDomain({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id, 'write')
    await new VerifyCustomDomain().handle(bot)
    return response.ok(customDomainStatusOf(bot))
  }

  /** GET /api/v1/bots/:id/versions: the history, newest first. */
  async versions({ auth, params, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id)
    return response.ok(toBotHistoryDto(await new ListBotVersions().handle(bot)))
  }

  /** POST /api/v1/bots/:id/versions {name}: keeps the draft as it is under a name. */
  async saveVersion({ auth, params, request, response }: HttpContext) {
    const { bot } = await findBotFor(auth.user!, params.id, 'write')
    const { name } = await request.validateUsing(namedBotVersionValidator)
    await new SaveNamedBotVersion().handle(auth.user!, bot, name)
    return response.created(toBotHistoryDto(await new ListBotVersions().handle(bot)))
  }

  /** POST /api/v1/bots/:id/versions/:versionId/restore: the version's content over the draft. */
  async restoreVersion({ auth, params, response }: HttpContext) {
    const { bot, mode } = await findBotFor(auth.user!, params.id, 'write')
    await new RestoreBotVersion().handle(auth.user!, bot, params.versionId)
    const published = await PublishedBot.findBy('bot_id', bot.id)
    return response.ok(toBotDto(bot, mode, published))
  }
}
