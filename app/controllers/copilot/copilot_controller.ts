import type { HttpContext } from '@adonisjs/core/http'
import Workspace from '#models/workspace'
import { findWorkflowFor } from '#actions/workflows/workflow_access'
import { findBotFor } from '#actions/bots/bot_access'
import { SendCopilotMessage } from '#actions/copilot/send_copilot_message'
import { ShowCopilotConversation } from '#actions/copilot/show_copilot_conversation'
import { type CopilotTarget } from '#actions/copilot/copilot'
import { copilotMessageValidator } from '#validators/copilot'

/**
 * The copilot panel of both editors (docs/copilot.md "HTTP"). Only people who may edit the
 * document talk to its copilot: its changes are edits.
 */
async function targetOf(ctx: HttpContext): Promise<CopilotTarget> {
  const user = ctx.auth.user!
  if (ctx.params.workflowId) {
    const { workflow } = await findWorkflowFor(user, ctx.params.workflowId, 'write')
    return {
      type: 'workflow',
      workflow,
      workspace: await Workspace.findOrFail(workflow.workspaceId),
    }
  }
  const { bot } = await findBotFor(user, ctx.params.botId, 'write')
  return { type: 'bot', bot, workspace: await Workspace.findOrFail(bot.workspaceId) }
}

export default class CopilotController {
  /** GET: the conversation (greeted when new), the usage and the usable AI credentials. */
  async show(ctx: HttpContext) {
    const target = await targetOf(ctx)
    return ctx.response.ok(await new ShowCopilotConversation().handle(ctx.auth.user!, target))
  }

  /** POST {content, credentialsId?}: the reply, and the document when the copilot changed it. */
  async send(ctx: HttpContext) {
    const target = await targetOf(ctx)
    const input = await ctx.request.validateUsing(copilotMessageValidator)
    return ctx.response.ok(await new SendCopilotMessage().handle(ctx.auth.user!, target, input))
  }
}
