import type { HttpContext } from '@adonisjs/core/http'
import AppError from '#exceptions/app_error'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { botTemplates } from '#services/bot_templates'
import { toBotTemplateSummary } from '#dtos/bot_template_dto'
import { ContinueTemplatePreview } from '#actions/bots/continue_template_preview'
import { CreateBotFromTemplate } from '#actions/bots/create_bot_from_template'
import { StartTemplatePreview } from '#actions/bots/start_template_preview'
import { templatePreviewStartValidator, useTemplateValidator } from '#validators/bot'
import { continueChatValidator } from '#validators/chat'

async function currentWorkspaceOf(ctx: HttpContext) {
  const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
  if (!current) throw AppError.notFound('Workspace not found')
  return current
}

/** The template gallery: list, preview chat, and "Use this template". */
export default class BotTemplatesController {
  async index() {
    const templates = await botTemplates()
    return { templates: templates.map(toBotTemplateSummary) }
  }

  async previewStart(ctx: HttpContext) {
    const { workspace } = await currentWorkspaceOf(ctx)
    const body = await ctx.request.validateUsing(templatePreviewStartValidator)
    return new StartTemplatePreview().handle(ctx.auth.user!, workspace, ctx.params.templateId, body)
  }

  async previewContinue(ctx: HttpContext) {
    const body = await ctx.request.validateUsing(continueChatValidator)
    return new ContinueTemplatePreview().handle(
      ctx.auth.user!,
      ctx.params.templateId,
      ctx.params.sessionId,
      body
    )
  }

  /** Creates the bot in the current workspace (and folder), then opens the editor. */
  async use(ctx: HttpContext) {
    const current = await currentWorkspaceOf(ctx)
    const { workspace } = current
    if (await ctx.bouncer.denies('authorIn', current))
      throw AppError.forbidden('Guests cannot change bots.')
    const { folderId } = await ctx.request.validateUsing(useTemplateValidator)
    const bot = await new CreateBotFromTemplate().handle(ctx.auth.user!, workspace, {
      templateId: ctx.params.templateId,
      folderId,
    })
    ctx.session.flash('toast', { type: 'success', title: 'Bot created', description: bot.name })
    return ctx.response.redirect(`/bots/${bot.id}/edit`)
  }
}
