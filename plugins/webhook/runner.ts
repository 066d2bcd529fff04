import type { Runner } from '#sdk/plugin'
import { readPath, toVariableValue } from '#sdk/runner'
import type plugin from './index.js'

/**
 * The flow waits here until the block's URL is called; the call's body is then mapped
 * to variables and the flow goes on (app/actions/chat/receive_block_webhook.ts).
 */
export const run: Runner<typeof plugin> = ({ options, bot, logger }) => {
  if (!bot) return {}
  if (bot.resumeWith !== undefined) {
    const mappings = options.responseVariableMapping ?? []
    const variablesToSet = mappings
      .filter((mapping) => mapping.variableId)
      .map((mapping) => ({
        id: mapping.variableId!,
        value: toVariableValue(readPath(bot.resumeWith, mapping.bodyPath)),
      }))
    logger.success('Webhook received', bot.resumeWith)
    return { variablesToSet }
  }
  if (!bot.resultId) {
    logger.info('Webhook: previews do not wait for calls; the flow goes on')
    return {}
  }
  const url = `${bot.appUrl}/api/v1/typebots/${bot.botId}/blocks/${bot.block.id}/results/${bot.resultId}/executeWebhook`
  return {
    clientSideActions: [{ type: 'listenForWebhook', listenForWebhook: { url } }],
    pause: true,
  }
}
